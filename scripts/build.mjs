// npm run build: every bundle of the package, and its type declarations.
//
//   dist/kestrel.js                the command line (UCI engine and tools), Node.js
//   dist/node/index.js             the library for Node.js
//   dist/node/worker.js            the library's search worker (and its helpers)
//   dist/browser/index.js          the library for browsers (ES module)
//   dist/browser/kestrel-worker.js the engine as a Web Worker script (UCI over postMessage)
//   dist/types/*.d.ts              the library's types
//
// The Node.js bundles that start a parallel search's helper threads carry
// the helpers' own, smaller bundle as text (helperSource below).
//
// `node scripts/build.mjs --sea [<file>]` builds dist/sea/kestrel.cjs (or the
// file given) instead, the CommonJS bundle that scripts/sea.mjs makes an
// executable of.
// `node scripts/build.mjs --script <file> [--evalfile <network>] [--tune]`
// builds only the self-contained script (what `make` writes for OpenBench):
// one CommonJS file behind `#!/usr/bin/env node`, the book inside, with the
// network file given built in instead of src/eval/nnue/embedded-net.ts;
// --tune makes it a tuning build, whose search parameters are UCI options
// (src/search/tuning.ts).

import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildFacts } from './build-name.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const at = (path) => join(ROOT, path);

/** The browser bundles take src/platform/browser.ts where the code names the platform (src/platform/index.ts). */
const browserPlatform = {
  name: 'browser-platform',
  setup(b) {
    b.onResolve({ filter: /^\.\/node\.js$/ }, (args) =>
      args.importer === at('src/platform/index.ts') ? { path: at('src/platform/browser.ts') } : undefined,
    );
  },
};

/** The commit, its date and whether it is a release, for src/util/build.ts. */
const facts = buildFacts(ROOT);
const common = {
  bundle: true,
  logLevel: 'warning',
  legalComments: 'none',
  define: {
    KESTREL_COMMIT: JSON.stringify(facts.commit),
    KESTREL_COMMIT_DATE: JSON.stringify(facts.date),
    KESTREL_RELEASE: JSON.stringify(facts.release),
  },
};
/** Bundles that use commander (CommonJS) inside an ES module need a require. */
const nodeRequire = 'import { createRequire as __kestrelRequire } from "node:module"; const require = __kestrelRequire(import.meta.url);';
/**
 * The command line's bundle and the library's search worker are ES modules
 * whose code runs inside one function (esbuild's iife format under an ES
 * module banner): V8 reaches variables of a module's top level more slowly
 * than a function's, and the search reads its tables and constants there
 * all the time. The same code as a plain ES module searched about 15 to 20%
 * fewer nodes per second (docs/performance.md). import.meta.url is taken
 * once, at the top.
 */
const oneFunctionModule = {
  format: 'iife',
  banner: { js: `${nodeRequire} const __kestrelModuleUrl = import.meta.url;` },
  define: { ...common.define, 'import.meta.url': '__kestrelModuleUrl' },
};

/** The helper threads are given their network (src/engine/helper.ts): their bundle leaves the built-in one out. */
const withoutBuiltInNetwork = {
  name: 'without-built-in-network',
  setup(b) {
    b.onLoad({ filter: /[\\/]eval[\\/]nnue[\\/]embedded-net\.ts$/ }, () => ({
      contents: "export const EMBEDDED_NETWORK_NAME = ''; export const EMBEDDED_NETWORK_BASE64 = '';",
      loader: 'ts',
    }));
  },
};

/**
 * The define that builds the helper threads' bundle (src/cli/helper-main.ts,
 * made with the same plugins as the bundle it goes into: a tuning build's
 * helpers must be tunable too) into a Node.js bundle as its text,
 * KESTREL_HELPER_SOURCE: a helper starts from that instead of the whole
 * engine, and so starts about three times as fast.
 */
async function helperSource(plugins = []) {
  const result = await build({
    ...common,
    entryPoints: [at('src/cli/helper-main.ts')],
    write: false,
    platform: 'node',
    format: 'iife',
    target: 'node20',
    define: { ...common.define, 'import.meta.url': '""' },
    plugins: [withoutBuiltInNetwork, ...plugins],
  });
  return { KESTREL_HELPER_SOURCE: JSON.stringify(result.outputFiles[0].text) };
}

async function buildSea(out) {
  await build({
    ...common,
    entryPoints: [at('src/cli/sea-main.ts')],
    outfile: out,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // import.meta.url is not used in the executable (workers and the book are embedded); say so to esbuild.
    define: { ...common.define, ...(await helperSource()), 'import.meta.url': 'undefined' },
  });
}

/** Builds src/eval/nnue/embedded-net.ts from a network file instead (EVALFILE=). */
function networkFrom(file) {
  const bytes = readFileSync(file);
  if (bytes.subarray(0, 4).toString('latin1') !== 'KNNU') throw new Error(`${file} is not a Kestrel network (no KNNU header)`);
  const contents = [
    `export const EMBEDDED_NETWORK_NAME = ${JSON.stringify(basename(file))};`,
    `export const EMBEDDED_NETWORK_BASE64 = ${JSON.stringify(bytes.toString('base64'))};`,
  ].join('\n');
  return {
    name: 'evalfile',
    setup(b) {
      b.onLoad({ filter: /[\\/]eval[\\/]nnue[\\/]embedded-net\.ts$/ }, () => ({ contents, loader: 'ts' }));
    },
  };
}

/**
 * The tuning build's src/search/params.ts: every number a variable, with the
 * table of them (name, default, the `[min, max]` ending its comment; a float
 * when any of the three has a decimal point) and a setter, which
 * src/search/tuning.ts finds.
 */
function tunableParams() {
  return {
    name: 'tunable-params',
    setup(b) {
      b.onLoad({ filter: /[\\/]search[\\/]params\.ts$/ }, (args) => {
        const source = readFileSync(args.path, 'utf8');
        const re = /\/\*\*[^\n]*\[(-?[\d.]+), (-?[\d.]+)\] \*\/\nexport const (\w+) = (-?[\d.]+);/g;
        const table = [...source.matchAll(re)].map((m) => ({
          name: m[3],
          value: Number(m[4]),
          min: Number(m[1]),
          max: Number(m[2]),
          float: [m[1], m[2], m[4]].some((t) => t.includes('.')),
        }));
        const exported = source.match(/^export const \w+/gm) ?? [];
        if (table.length === 0 || table.length !== exported.length)
          throw new Error(`params.ts: ${exported.length} exports, ${table.length} with a one-line [min, max] comment and a number`);
        const contents = [
          source.replace(/^export const (\w+) = /gm, 'export let $1 = '),
          `export const SEARCH_PARAMETER_TABLE = ${JSON.stringify(table)};`,
          'export function setSearchParameter(name: string, value: number): void {',
          '  switch (name) {',
          ...table.map((p) => `    case '${p.name}': ${p.name} = value; break;`),
          '  }',
          '}',
        ].join('\n');
        return { contents, loader: 'ts' };
      });
    },
  };
}

async function buildScript(out, evalFile, tune) {
  const helper = await helperSource(tune ? [tunableParams()] : []);
  await build({
    ...common,
    entryPoints: [at('src/cli/script-main.ts')],
    outfile: out,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    loader: { '.bin': 'base64' },
    banner: { js: '#!/usr/bin/env node' },
    // Workers start from the script's text (script-setup.ts), the book is inside: import.meta.url names nothing.
    define: { ...common.define, ...helper, 'import.meta.url': '"kestrel.cjs"' },
    plugins: [...(evalFile === undefined ? [] : [networkFrom(evalFile)]), ...(tune ? [tunableParams()] : [])],
  });
  chmodSync(out, 0o755);
}

async function buildAll() {
  const helper = await helperSource();
  await Promise.all([
    build({
      ...common,
      entryPoints: [at('src/cli/main.ts')],
      outfile: at('dist/kestrel.js'),
      platform: 'node',
      target: 'node20',
      ...oneFunctionModule,
      define: { ...oneFunctionModule.define, ...helper },
    }),
    build({
      ...common,
      entryPoints: [at('src/api/node.ts')],
      outfile: at('dist/node/index.js'),
      platform: 'node',
      format: 'esm',
      target: 'node20',
      // The library must stay a plain ES module (it has exports): its search
      // workers run worker.js, the engine in one function like dist/kestrel.js.
      define: { ...common.define, KESTREL_WORKER_FILE: '"./worker.js"' },
    }),
    build({
      ...common,
      entryPoints: [at('src/engine/search-worker.ts')],
      outfile: at('dist/node/worker.js'),
      platform: 'node',
      target: 'node20',
      ...oneFunctionModule,
      define: { ...oneFunctionModule.define, ...helper },
    }),
    build({
      ...common,
      entryPoints: [at('src/browser/index.ts')],
      outfile: at('dist/browser/index.js'),
      platform: 'browser',
      format: 'esm',
      target: 'es2022',
      plugins: [browserPlatform],
    }),
    build({
      ...common,
      entryPoints: [at('src/browser/worker.ts')],
      outfile: at('dist/browser/kestrel-worker.js'),
      platform: 'browser',
      format: 'iife',
      target: 'es2022',
      plugins: [browserPlatform],
      // Workers in a browser start from the worker script itself (self.location), never from import.meta.url.
      define: { ...common.define, 'import.meta.url': '""' },
    }),
  ]);
  buildTypes();
}

/** Modules of src/api/ that are not part of the library's types: the library uses them inside. */
const INTERNAL_DECLARATIONS = new Set(['node.d.ts', 'position.d.ts', 'probe.d.ts']);

/** Modules of the engine (under src/) whose declarations the library's types use: each imports nothing. */
const SHARED_DECLARATIONS = ['search/driver-list'];

/** The library's declarations: tsc emits them for src/api, and the public ones are copied to dist/types. */
function buildTypes() {
  const out = join(tmpdir(), `kestrel-types-${process.pid}`);
  rmSync(out, { recursive: true, force: true });
  const tsc = at('node_modules/typescript/bin/tsc');
  const r = spawnSync(
    process.execPath,
    [
      tsc,
      '--ignoreConfig',
      ...['--declaration', '--emitDeclarationOnly', '--outDir', out, '--rootDir', at('src')],
      ...['--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--strict', '--skipLibCheck', '--types', 'node'],
      at('src/api/index.ts'),
    ],
    { encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`tsc (declarations) failed:\n${r.stdout}${r.stderr}`);
  const target = at('dist/types');
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  const apiDir = join(out, 'api');
  for (const name of readdirSync(apiDir)) {
    if (!name.endsWith('.d.ts') || INTERNAL_DECLARATIONS.has(name)) continue;
    let text = readFileSync(join(apiDir, name), 'utf8');
    // Engine modules that import nothing may be published as they are, beside the library's own types.
    for (const shared of SHARED_DECLARATIONS) text = text.replaceAll(`'../${shared}.js'`, `'./${basename(shared)}.js'`);
    // The public declarations must stand alone: nothing else of the engine's internals.
    if (/from '\.\.\//.test(text) || /import\("\.\.\//.test(text)) throw new Error(`dist/types/${name} refers outside src/api`);
    writeFileSync(join(target, name), text);
  }
  for (const shared of SHARED_DECLARATIONS) {
    const text = readFileSync(join(out, `${shared}.d.ts`), 'utf8');
    if (/from '|import\(/.test(text)) throw new Error(`src/${shared}.ts must import nothing to be published with the types`);
    copyFileSync(join(out, `${shared}.d.ts`), join(target, `${basename(shared)}.d.ts`));
  }
  rmSync(out, { recursive: true, force: true });
  if (!existsSync(join(target, 'index.d.ts'))) throw new Error('dist/types/index.d.ts was not made');
}

const argAfter = (flag) => {
  const i = process.argv.indexOf(flag);
  return i > 0 ? process.argv[i + 1] : undefined;
};
if (process.argv.includes('--sea')) {
  const out = argAfter('--sea');
  await buildSea(out === undefined || out.startsWith('--') ? at('dist/sea/kestrel.cjs') : resolve(out));
} else if (process.argv.includes('--script'))
  await buildScript(resolve(argAfter('--script')), argAfter('--evalfile'), process.argv.includes('--tune'));
else await buildAll();
