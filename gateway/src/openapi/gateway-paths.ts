import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';

const plain = (description: string, schema: z.ZodType = z.looseObject({ success: z.boolean() })) => ({
  description,
  content: { 'application/json': { schema } },
});

/** What the gateway answers itself. */
export const gatewayPaths: ZodOpenApiPathsObject = {
  '/': {
    get: {
      tags: ['gateway'],
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
      },
    },
  },
  '/healthz': {
    get: { tags: ['gateway'], summary: 'The gateway process is alive', responses: { 200: plain('Alive') } },
  },
  '/readyz': {
    get: {
      tags: ['gateway'],
      summary: 'Every service (with its database and broker) answers',
      description:
        'Answered from a state refreshed at most once a second (hits at the same moment share one check of ' +
        'the services). Not rate-limited.',
      responses: { 200: plain('Ready'), 503: plain('Not ready: `down` names each unit that is not') },
    },
  },
  '/openapi.json': {
    get: {
      tags: ['gateway'],
      summary: 'This document',
      responses: { 200: plain('OpenAPI 3.1', z.looseObject({})) },
    },
  },
};
