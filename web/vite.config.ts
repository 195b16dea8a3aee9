import { apiPathPrefixes } from '@pp/api-client/prefixes';
import { defineConfig } from 'vite';

/**
 * What the dev server (`npm run dev -w web`) sends on to a gateway (`npm start`, port 8080): every
 * path of the API (its first segments, generated with the typed client) and the API's reference page.
 */
const API = [...apiPathPrefixes, '/docs'];
const gateway = process.env.GATEWAY_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    target: 'es2022',
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
  },
  server: { proxy: Object.fromEntries(API.map((path) => [path, { target: gateway, changeOrigin: false }])) },
});
