// The parts of a single executable (Node.js's single executable
// applications) that build-exe.mjs (for this machine) and release.mjs (for
// every platform) share: the blob, taking a Node.js binary's signature off,
// and injecting the blob into a copy of that binary.
//
// The blob is the same for every platform: the command line as one CommonJS
// file (main script, and asset the workers start from) and the book, with no
// V8 snapshot or code cache (those would tie it to one platform). It must be
// made by the Node.js version it is injected into.

import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const at = (path) => join(ROOT, path);
/** The fuse postject flips so that Node.js looks for the injected blob (Node's documentation). */
const SENTINEL_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

/** Exits with a message unless this Node.js can make a blob (20.12 added sea.getAsset). */
export function requireSeaNode(what) {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < 20 || (major === 20 && minor < 12)) {
    console.error(`${what} needs Node.js 20.12 or newer (sea.getAsset); this is ${process.version}`);
    process.exit(1);
  }
}

/** Builds `work`/kestrel.cjs and the blob made of it and the book, `work`/sea-prep.blob; returns the blob's path. */
export function makeSeaBlob(work = at(join('dist', 'sea'))) {
  mkdirSync(work, { recursive: true });
  execFileSync(process.execPath, [at('scripts/build.mjs'), '--sea', join(work, 'kestrel.cjs')], { stdio: 'inherit' });
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
  return config.output;
}

/**
 * Windows: drops a PE file's Authenticode signature (what `signtool remove /s` does): the security
 * entry of the data directories is zeroed and the certificate table, at the end of the file, cut off.
 * Injecting into a signed file would leave a signature that no longer matches.
 */
export function removePeSignature(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const pe = view.getUint32(0x3c, true);
  if (view.getUint32(pe, true) !== 0x4550) throw new Error('not a PE file');
  const optional = pe + 24;
  const magic = view.getUint16(optional, true);
  const directories = optional + (magic === 0x20b ? 112 : 96);
  const security = directories + 4 * 8;
  const offset = view.getUint32(security, true);
  const size = view.getUint32(security + 4, true);
  if (size === 0) return bytes;
  if (offset + size < bytes.length - 8) throw new Error('the certificate table is not at the end of the file');
  view.setUint32(security, 0, true);
  view.setUint32(security + 4, 0, true);
  view.setUint32(optional + 64, 0, true); // the checksum, which covered the signature
  return bytes.subarray(0, offset);
}

/**
 * macOS: drops a Mach-O file's code signature (what `codesign --remove-signature` does): the
 * LC_CODE_SIGNATURE load command is removed and its data, at the end of __LINKEDIT and of the file,
 * cut off. A 64-bit single-architecture file only (Node.js's darwin builds).
 */
export function removeMachoSignature(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== 0xfeedfacf) throw new Error('not a 64-bit Mach-O file');
  const ncmds = view.getUint32(16, true);
  const sizeofcmds = view.getUint32(20, true);
  let signature = -1;
  let linkedit = -1;
  for (let i = 0, at = 32; i < ncmds; i++) {
    const cmd = view.getUint32(at, true);
    if (cmd === 0x1d) signature = at; // LC_CODE_SIGNATURE
    if (cmd === 0x19 && new TextDecoder().decode(bytes.subarray(at + 8, at + 18)) === '__LINKEDIT') linkedit = at;
    at += view.getUint32(at + 4, true);
  }
  if (signature < 0) return bytes;
  if (linkedit < 0) throw new Error('no __LINKEDIT segment');
  const dataoff = view.getUint32(signature + 8, true);
  const datasize = view.getUint32(signature + 12, true);
  const fileoff = Number(view.getBigUint64(linkedit + 40, true));
  const filesize = Number(view.getBigUint64(linkedit + 48, true));
  if (dataoff + datasize !== bytes.length || fileoff + filesize !== bytes.length) {
    throw new Error('the code signature is not at the end of __LINKEDIT and of the file');
  }
  const cmdsize = view.getUint32(signature + 4, true);
  const end = 32 + sizeofcmds;
  bytes.copyWithin(signature, signature + cmdsize, end);
  bytes.fill(0, end - cmdsize, end);
  view.setUint32(16, ncmds - 1, true);
  view.setUint32(20, sizeofcmds - cmdsize, true);
  const linkeditAt = linkedit > signature ? linkedit - cmdsize : linkedit;
  const newFilesize = dataoff - fileoff;
  view.setBigUint64(linkeditAt + 48, BigInt(newFilesize), true); // its vmsize may stay larger
  return bytes.subarray(0, dataoff);
}

/** Copies the Node.js binary `node` for the platform `os` ('win32', 'linux', 'darwin') to `out`, without its signature. */
export function unsignedCopy(node, out, os) {
  mkdirSync(dirname(out), { recursive: true });
  rmSync(out, { force: true });
  if (os === 'linux') copyFileSync(node, out);
  else {
    const bytes = readFileSync(node);
    writeFileSync(out, os === 'win32' ? removePeSignature(bytes) : removeMachoSignature(bytes));
  }
  chmodSync(out, 0o755);
}

/** Injects the blob into the Node.js binary `exe` (for the platform `os`) and flips the fuse. */
export async function injectBlob(exe, os, blob) {
  const { inject } = createRequire(import.meta.url)('postject');
  await inject(exe, 'NODE_SEA_BLOB', readFileSync(blob), {
    sentinelFuse: SENTINEL_FUSE,
    machoSegmentName: os === 'darwin' ? 'NODE_SEA' : undefined,
    overwrite: true,
  });
}
