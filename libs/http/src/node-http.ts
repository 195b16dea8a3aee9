/**
 * `node:http` as its CommonJS module rather than through an ES `import`. Importing it as an ES module
 * builds its namespace, which reads each of its exports, the lazy WebSocket ones among them: that
 * loads Node's whole fetch implementation (undici), about 13 MB of resident memory in a process that
 * never fetches. Types still come from `import type`.
 */
export const nodeHttp = process.getBuiltinModule('node:http');
