/**
 * The units of the platform: one process each, with its default port and its own database (but for a
 * unit that owns no data).
 * The gateway's route table, the local launcher and the deployment manifests all start from this list.
 */
export const services = [
  { name: 'identity', port: 8081, database: 'pp_identity' },
  { name: 'sessions', port: 8082, database: 'pp_sessions' },
  { name: 'stories', port: 8083, database: 'pp_stories' },
  { name: 'ai', port: 8084, database: 'pp_ai' },
  { name: 'integrations', port: 8085, database: 'pp_integrations' },
  { name: 'webhooks', port: 8086, database: 'pp_webhooks' },
  // Owns no data: the API as MCP tools, calling the other units as the caller.
  { name: 'mcp', port: 8087, database: undefined },
] as const;

export type ServiceName = (typeof services)[number]['name'];
export const GATEWAY_PORT = 8080;

/** The environment variable that tells a caller where a service listens, e.g. SESSIONS_URL. */
export const serviceUrlVar = (name: ServiceName) => `${name.toUpperCase()}_URL`;
export const defaultServiceUrl = (name: ServiceName) =>
  `http://127.0.0.1:${services.find((s) => s.name === name)!.port}`;
