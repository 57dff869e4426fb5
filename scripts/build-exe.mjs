// npm run build:exe: Kestrel as one executable file for the platform this
// runs on (dist/exe/kestrel, or dist/exe/kestrel.exe on Windows), made with
// Node.js's single executable applications: the Node.js running this script
// is copied, and the engine's code and the shipped book are injected into
// the copy (postject). The executable carries that Node.js: build it with a
// supported LTS. Needs Node.js 20.12 or newer (sea.getAsset).
//
//   node scripts/build-exe.mjs [--out <file>]

import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const at = (path) => join(ROOT, path);
/** The fuse postject flips so that Node.js looks for the injected blob (Node's documentation). */
const SENTINEL_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 12)) {
  console.error(`build:exe needs Node.js 20.12 or newer (sea.getAsset); this is ${process.version}`);
  process.exit(1);
}

const outArg = process.argv.indexOf('--out');
const exe =
  outArg > 0 ? resolve(process.argv[outArg + 1]) : at(join('dist', 'exe', process.platform === 'win32' ? 'kestrel.exe' : 'kestrel'));
const work = at(join('dist', 'sea'));
mkdirSync(work, { recursive: true });
mkdirSync(dirname(exe), { recursive: true });

// 1. The command line as one CommonJS file (the form single executables run).
execFileSync(process.execPath, [at('scripts/build.mjs'), '--sea'], { stdio: 'inherit' });

// 2. The blob: that file as the main script, and as an asset the workers start from, with the book.
const config = {
  main: join(work, 'kestrel.cjs'),
  output: join(work, 'sea-prep.blob'),
  disableExperimentalSEAWarning: true,
  useSnapshot: false,
  useCodeCache: false,
  assets: { 'kestrel.cjs': join(work, 'kestrel.cjs'), 'kestrel.bin': at('books/kestrel.bin') },
};
writeFileSync(join(work, 'sea-config.json'), JSON.stringify(config, null, 2));
execFileSync(process.execPath, ['--experimental-sea-config', join(work, 'sea-config.json')], { stdio: 'inherit' });

// 3. A copy of this Node.js with the blob injected.
rmSync(exe, { force: true });
copyFileSync(process.execPath, exe);
if (process.platform === 'darwin') execFileSync('codesign', ['--remove-signature', exe]);
const { inject } = createRequire(import.meta.url)('postject');
await inject(exe, 'NODE_SEA_BLOB', readFileSync(config.output), {
  sentinelFuse: SENTINEL_FUSE,
  machoSegmentName: process.platform === 'darwin' ? 'NODE_SEA' : undefined,
  overwrite: true,
});
if (process.platform === 'darwin') execFileSync('codesign', ['--sign', '-', exe]);

const mb = (statSync(exe).size / 1024 / 1024).toFixed(1);
console.log(`${exe}: ${mb} MB, Node.js ${process.version} ${process.platform}-${process.arch}`);
