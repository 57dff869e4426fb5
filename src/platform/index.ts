// The host the engine runs on. This file names the Node.js implementation;
// the browser build (scripts/build.mjs) resolves it to browser.ts instead.

export { platform } from './node.js';
export type { EngineWorker, RandomAccessFile, UciStream } from './types.js';
