// The single executable (npm run build:exe, scripts/build-exe.mjs) carries
// the engine's code and the shipped book as assets of Node's single
// executable applications: workers start from that code, the book is read
// from memory. Imported before anything else by sea-main.ts.

import { getAsset } from 'node:sea';
import { useEmbedded } from '../platform/node.js';

let source: string | null = null;

useEmbedded({
  workerSource: () => {
    source ??= getAsset('kestrel.cjs', 'utf8');
    return source;
  },
  book: () => new Uint8Array(getAsset('kestrel.bin')),
});
