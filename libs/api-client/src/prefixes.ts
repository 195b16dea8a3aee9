/**
 * The first segment of every path of the public API (`/sessions`, `/auth`, ...), for what must send
 * the API's requests somewhere without importing its types (a dev server's proxy). Generated with
 * schema.ts by `npm run generate:client`; do not edit.
 */
export const apiPathPrefixes: readonly string[] = [
  '/auth',
  '/folders',
  '/healthz',
  '/integrations',
  '/mcp',
  '/openapi.json',
  '/readyz',
  '/sessions',
  '/stories',
  '/webhooks',
  '/workspace',
];
