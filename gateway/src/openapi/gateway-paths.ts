import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { errorEnvelopeSchema } from '@pp/http';

const plain = (description: string, schema: z.ZodType = z.looseObject({ success: z.boolean() })) => ({
  description,
  content: { 'application/json': { schema } },
});

/** Answered before any route sees the request, on every path. */
const headersTooLarge = {
  431: plain('Request headers over 16 KB in all (`headers_too_large`)', errorEnvelopeSchema),
};

/** What the gateway answers itself: no token needed, and none is read. */
const own = (operationId: string) => ({ operationId, tags: ['gateway'], security: [] });

/** What the gateway answers itself. */
export const gatewayPaths: ZodOpenApiPathsObject = {
  '/': {
    get: {
      ...own('getWelcome'),
      summary: 'Where to start: links to the documentation, this document and the health check',
      description:
        'A client that ranks `text/html` above `application/json` in `Accept` (a browser) gets the page of ' +
        'the web room instead, as at `/room/{code}` (the link a room shares); every other client (curl sends ' +
        '`*/*`) gets these links. Neither is rate-limited.',
      responses: {
        200: {
          description: 'Links (JSON), or the web room (HTML) for a browser',
          content: {
            'application/json': { schema: z.looseObject({ success: z.boolean() }) },
            'text/html': { schema: z.string() },
          },
        },
        ...headersTooLarge,
      },
    },
  },
  '/healthz': {
    get: {
      ...own('getHealth'),
      summary: 'The gateway process is alive',
      responses: { 200: plain('Alive'), ...headersTooLarge },
    },
  },
  '/readyz': {
    get: {
      ...own('getReadiness'),
      summary: 'Every service (with its database and broker) answers',
      description:
        'Answered from a state refreshed at most once a second (hits at the same moment share one check of ' +
        'the services). Not rate-limited.',
      responses: {
        200: plain('Ready'),
        503: plain('Not ready: `down` names each unit that is not'),
        ...headersTooLarge,
      },
    },
  },
  '/openapi.json': {
    get: {
      ...own('getOpenApiDocument'),
      summary: 'This document',
      responses: { 200: plain('OpenAPI 3.1', z.looseObject({})), ...headersTooLarge },
    },
  },
};
