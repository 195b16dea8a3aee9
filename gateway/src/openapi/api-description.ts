import { z } from 'zod';

export const rateLimitHeaders = z.object({
  'X-RateLimit-Limit': z.int().meta({
    description:
      'Requests allowed per minute in the bucket that counted this request (60 by default; 600 for a room entry)',
    header: { id: 'X-RateLimit-Limit' },
  }),
  'X-RateLimit-Remaining': z
    .int()
    .meta({ description: 'Requests left in the current window', header: { id: 'X-RateLimit-Remaining' } }),
  'X-RateLimit-Reset': z.int().meta({
    description: 'When the window resets, in Unix epoch seconds',
    header: { id: 'X-RateLimit-Reset' },
  }),
  RateLimit: z.string().meta({
    description:
      'IETF draft: `"<bucket>"; r=<remaining>; t=<seconds to reset>`, the bucket being `token`, `participant`, `room` or `ip`',
    header: { id: 'RateLimit' },
  }),
  'RateLimit-Policy': z
    .string()
    .meta({ description: 'IETF draft: `"<bucket>"; q=<limit>; w=60`', header: { id: 'RateLimit-Policy' } }),
  'X-Request-Id': z
    .string()
    .meta({ description: 'Id of this request, set by the gateway', header: { id: 'X-Request-Id' } }),
});

export const retryAfterHeaders = rateLimitHeaders.extend({
  'Retry-After': z
    .int()
    .meta({ description: 'Seconds to wait before trying again', header: { id: 'Retry-After' } }),
});

export const API_DESCRIPTION = `
Planning poker: estimate stories together over a JSON HTTP API.

**Authentication.** Send \`Authorization: Bearer <token>\`. Tokens: access tokens from \`POST /auth/register\`,
\`POST /auth/login\` or social sign-on (valid 24 h), and API / MCP tokens from \`POST /auth/tokens\` (valid until
revoked or their optional \`expires_at\`). A missing, malformed, expired or revoked token on an authenticated
endpoint gives 401 with \`WWW-Authenticate: Bearer\`. Public endpoints accept a token too: when it is valid the
request is made as that user, otherwise anonymously. A revoked token stops working at once on every gateway.
Round control (reveal, reset and activate a story; start and stop the countdown) takes the owner's bearer token,
or instead the \`X-Participant-Token\` of the room's moderator (the participant the owner handed the role to):
neither gives 401; a bearer token given there is checked as on any authenticated endpoint (401 when invalid,
503 when it cannot be checked).

**Envelope.** Every JSON response has \`success\`, except the MCP endpoint's (\`POST /mcp\`): the protocol answers
in JSON-RPC 2.0 as it is (\`{ jsonrpc, id, result }\` or \`{ jsonrpc, id, error }\`). A success carries its payload
under resource-named keys (\`session\`, \`participants\`, \`token\`, ...) at the top level and again under \`data\`,
plus an optional \`message\`. An error is \`{ success: false, message, error: { code } }\`, with \`errors\` (messages
by field path) on 422 only. Responses never contain stack traces, SQL or internal host names.

**Status codes.** 400 malformed request (body not valid JSON or not UTF-8, a query value of the wrong type: a
whole number not written in decimal digits such as \`0x10\` or \`1e1\`, an empty one, a key given twice; not HTTP at all, a
compressed body that is not what its \`Content-Encoding\` says: \`invalid_content_encoding\`; a body may come
gzip, deflate, br or zstd compressed, and its limit counts it unpacked);
401 authentication; 403 not the owner; 404 unknown resource or path (a path value that cannot name anything,
such as a participant id that is not a number or a code with a NUL character, is an unknown one); 405 method not allowed on a known path;
409 conflict (\`duplicate\` or a state-specific code); 413 body over the limit (1 MB by default); 415 a body
that is not JSON, or in a charset or \`Content-Encoding\` the API does not read; 422 validation, including a field the body does not take (every request body is closed:
an unknown field is refused, under \`errors._body\`; a path that documents no body, such as a reveal, takes none
or \`{}\`), JSON of the wrong type (\`null\`, an array), a body nested deeper
than 64 levels or holding over 10,000 keys and array elements (under \`errors._body\`), and text no database
can store: the NUL character (\`\\u0000\`) or a lone surrogate (\`\\ud800\` without its pair), in a value or a
key, named by its field; a query value out of range or not among those allowed; 431 request headers over 16 KB in all; 429 rate limited;
503 a dependency is down (\`service_unavailable\`, with \`Retry-After\`); 504 a service did not answer in time.

**Rate limiting.** 60 requests per minute by default, counted per bucket on every API path and shared by all
gateway replicas. The bucket of a request: a valid bearer token's (\`token\`, whatever address it comes from);
else a valid \`X-Participant-Token\` for the room of the path's code (\`participant\`: the token a join returns; one
made up, of another room or from before tokens were signed counts as none); else, for opening and joining a room
before having a token (the public \`GET\`s under \`/sessions/{code}\`, the live stream included, and
\`POST /sessions/{code}/join\`), an allowance of that room from the client address (\`room\`, 600 a minute by default:
50 people behind one office address get in within a minute); every other request counts against the client
address (\`ip\`), an invalid bearer token, an unknown path and a vote without a participant token included. A room
entry answered 404 (a code that does not exist) costs the address as well, and an address whose own allowance is
spent enters no room (429): codes cannot be tried faster than the address's limit, nor can a bearer token the
gateway has not seen before be checked from it. A \`POST /mcp\` costs one per
JSON-RPC \`tools/call\` it holds (a batch of 100 costs 100, at least 1); a request that does not fit is refused whole
and costs nothing. The welcome at \`/\`, \`/healthz\`, \`/readyz\`, \`/openapi.json\`, \`/docs\` and the web room's pages are
never counted or limited (nor carry the headers below); \`/readyz\` answers from a state at most a second old. Every
other response carries \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\`, \`X-RateLimit-Reset\` (Unix epoch seconds) and
the IETF draft \`RateLimit\` / \`RateLimit-Policy\` headers, of the bucket that counted it (\`"token"\`, \`"participant"\`,
\`"room"\` or \`"ip"\`). Over the limit: 429 with \`Retry-After\` (seconds) and the error envelope, whose message says
which limit was met. The live room stream counts once, when it is opened; at most 100 streams (by default) may be
open at once from one address on each gateway replica, and the next is refused with 429 \`too_many_streams\` until
one closes.

**Text.** Length limits (\`maxLength\`, \`minLength\`) count characters (Unicode code points, as JSON Schema does):
an emoji is one. Cards, votes and folder and template names are read in Unicode's composed form (NFC), so that é
typed as one character or as e and a combining accent is one card, one vote, one name; names are one per owner
in any case, as Unicode case folding has it (Straße and STRASSE are one name).

**Session codes** are 6 characters and case-insensitive in paths. Every response carries \`X-Request-Id\`.
A JSON answer to a \`GET\` carries a weak \`ETag\`: asked again with \`If-None-Match\`, an unchanged one is 304 with no
body. The answer to a change (\`POST\`, \`PUT\`, \`PATCH\`, \`DELETE\`) carries none: it is no representation to ask for again.
A W3C \`traceparent\` (or \`tracestate\`) a client sends is neither continued nor passed on: each request starts
a trace of its own; send \`X-Correlation-Id\` to follow your calls.
`.trim();
