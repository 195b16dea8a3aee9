import type { Express } from 'express';
import { createServiceApp, unitOpenApiRoutes } from '@pp/http';
import { listenToUnitDescriptions, type UnitDescriptions } from '@pp/http-client';
import type { StatelessServiceDefinition, StatelessUnitContext } from '@pp/runtime';
import { docs } from './api/docs.ts';
import { tasks } from './background/index.ts';
import { createUnitsClient } from './clients/units.client.ts';
import type { Config } from './config.ts';
import { mcpRoutes } from './routes/mcp.routes.ts';
import type { McpContext } from './use-cases/shared/context.ts';
import { toolInputs } from './use-cases/shared/tool-inputs.ts';

/**
 * A tool's input is its endpoint's body inside a JSON-RPC message: the largest, import_csv's CSV (up to
 * 1,000,000 characters, which the integrations unit takes in a body of 1 MB), must fit with the message
 * around it. The gateway's own limit still applies first.
 */
const BODY_LIMIT = '2mb';

/** The MCP unit's HTTP API: the MCP endpoint. It owns no data: its tools call the other units. */
export function createApp(
  config: Config,
  unit: StatelessUnitContext,
  descriptions: UnitDescriptions,
): Express {
  const context: McpContext = {
    units: createUnitsClient(config, unit.logger),
    inputs: toolInputs(descriptions),
    logger: unit.logger,
  };
  return createServiceApp({
    logger: unit.logger,
    unit: unit.name,
    identityKey: config.INTERNAL_SIGNING_KEY,
    readiness: {},
    bodyLimit: BODY_LIMIT,
    isShuttingDown: unit.isShuttingDown,
    routes: (app) => {
      app.use(unitOpenApiRoutes(unit.name, docs));
      app.use(mcpRoutes(() => context));
    },
  });
}

/** The MCP unit as libs/runtime runs it (main.ts and the tests). */
export function definition(config: Config): StatelessServiceDefinition {
  let descriptions: UnitDescriptions | undefined;
  return {
    name: 'mcp',
    config,
    createApp: (unit) => {
      descriptions = listenToUnitDescriptions({
        units: {
          sessions: config.SESSIONS_URL,
          stories: config.STORIES_URL,
          ai: config.AI_URL,
          integrations: config.INTEGRATIONS_URL,
        },
        caller: 'mcp',
        signingKey: config.INTERNAL_SIGNING_KEY,
        logger: unit.logger,
      });
      return createApp(config, unit, descriptions);
    },
    background: () => (descriptions ? tasks(descriptions) : []),
  };
}
