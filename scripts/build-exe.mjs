// npm run build:exe: Kestrel as one executable file for the platform this
// runs on (dist/exe/kestrel, or dist/exe/kestrel.exe on Windows), made with
// Node.js's single executable applications: the Node.js running this script
// is copied, and the engine's code and the shipped book are injected into
// the copy (postject; scripts/sea.mjs). The executable carries that Node.js:
// build it with a supported LTS. Needs Node.js 20.12 or newer (sea.getAsset).
// `npm run release` makes the files for every platform (scripts/release.mjs).
//
//   node scripts/build-exe.mjs [--out <file>]

import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { injectBlob, makeSeaBlob, ROOT, requireSeaNode, unsignedCopy } from './sea.mjs';

requireSeaNode('build:exe');
const outArg = process.argv.indexOf('--out');
const exe =
  outArg > 0 ? resolve(process.argv[outArg + 1]) : join(ROOT, 'dist', 'exe', process.platform === 'win32' ? 'kestrel.exe' : 'kestrel');

const blob = makeSeaBlob();
if (process.platform === 'darwin') {
  // codesign reads any Mach-O (also universal files), and signs the result ad hoc, as Apple silicon requires.
  mkdirSync(dirname(exe), { recursive: true });
  rmSync(exe, { force: true });
  copyFileSync(process.execPath, exe);
  execFileSync('codesign', ['--remove-signature', exe]);
  await injectBlob(exe, 'darwin', blob);
  execFileSync('codesign', ['--sign', '-', exe]);
} else {
  unsignedCopy(process.execPath, exe, process.platform);
  await injectBlob(exe, process.platform, blob);
}

const mb = (statSync(exe).size / 1024 / 1024).toFixed(1);
console.log(`${exe}: ${mb} MB, Node.js ${process.version} ${process.platform}-${process.arch}`);
