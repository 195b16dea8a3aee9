import { defineConfig } from 'vite';

/** The API paths the dev server (`npm run dev -w web`) sends on to a gateway (`npm start`, port 8080). */
const API = [
  '/auth',
  '/sessions',
  '/stories',
  '/folders',
  '/workspace',
  '/openapi.json',
  '/docs',
  '/healthz',
];
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
