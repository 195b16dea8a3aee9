import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';

const plain = (description: string, schema: z.ZodType = z.looseObject({ success: z.boolean() })) => ({
  description,
  content: { 'application/json': { schema } },
});

/** What the gateway answers itself. */
export const gatewayPaths: ZodOpenApiPathsObject = {
  '/healthz': {
    get: { tags: ['gateway'], summary: 'The gateway process is alive', responses: { 200: plain('Alive') } },
  },
  '/readyz': {
    get: {
      tags: ['gateway'],
      summary: 'Every service (with its database and broker) answers',
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
