// The self-contained script (`make`, scripts/build.mjs --script): one
// CommonJS file behind a `#!/usr/bin/env node` line, carrying the shipped
// book, that runs from anywhere with nothing beside it. Its workers run the
// file's own text (it is read once, when the first worker starts), as the
// single executable's run its embedded code. Imported before anything else
// by script-main.ts.

import { readFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';
import { useEmbedded } from '../platform/node.js';
import shippedBookBase64 from '../../books/kestrel.bin';

/** Where the script is: Node.js gives its absolute path as argv[1] on the main thread; workers inherit the environment. */
const PATH_VARIABLE = 'KESTREL_SCRIPT_PATH';
if (isMainThread) process.env[PATH_VARIABLE] = process.argv[1];

let source: string | null = null;
let book: Uint8Array | null = null;

useEmbedded({
  workerSource: () => {
    source ??= readFileSync(process.env[PATH_VARIABLE] ?? process.argv[1], 'utf8');
    return source;
  },
  book: () => {
    book ??= new Uint8Array(Buffer.from(shippedBookBase64, 'base64'));
    return book;
  },
});
