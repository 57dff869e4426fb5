// What npm publishes: `npm pack` holds what a user needs and nothing else,
// and the packed file installs into an empty project where `import { Engine }
// from 'kestrel-chess'` works, with its types. The package has no runtime
// dependencies, so the install needs no network. Skipped, loudly, where npm
// cannot pack.

import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../uci/engine-process.js';
import { removeScratchDirs, scratchDir } from '../scratch.js';

const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const work = scratchDir('kestrel-pack-');

/** npm pack's report (files and tarball), or why it could not run. */
function pack(): { tarball: string; files: string[] } | string {
  // The bundles are built already (npm test builds before the tests): no prepare script here.
  const r = spawnSync(NPM, ['pack', '--json', '--ignore-scripts', '--pack-destination', work], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0 || r.error !== undefined) return `npm pack failed: ${r.error?.message ?? r.stderr}`;
  const [report] = JSON.parse(r.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  return { tarball: join(work, report.filename), files: report.files.map((f) => f.path).sort() };
}

const packed = pack();
if (typeof packed === 'string') {
  console.warn(`\n*** SKIPPED: the package test: ${packed} ***\n`);
  removeScratchDirs(); // no test runs, so no hook would
}

describe.skipIf(typeof packed === 'string')('the npm package', () => {
  const { tarball, files } = packed as { tarball: string; files: string[] };
  const project = join(work, 'project');

  beforeAll(() => {
    execFileSync('mkdir', ['-p', project]);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'uses-kestrel', private: true, type: 'module' }));
    execFileSync(NPM, ['install', tarball, '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts'], {
      cwd: project,
      stdio: 'pipe',
    });
  }, 120000);

  it('holds the bundles, the types, the book and the docs, and no sources or tests', () => {
    for (const file of [
      'package.json',
      'README.md',
      'LICENSE',
      'dist/kestrel.js',
      'dist/node/index.js',
      'dist/browser/index.js',
      'dist/browser/kestrel-worker.js',
      'dist/types/index.d.ts',
      'books/kestrel.bin',
    ]) {
      expect(files).toContain(file);
    }
    expect(files.filter((f) => /^(src|test|bench|web|scripts|data|node_modules|dist\/(exe|sea))\//.test(f))).toEqual([]);
  });

  it('installs into an empty project, where Engine imports, searches and has types', () => {
    const script = [
      "import { Engine, legalMoves } from 'kestrel-chess';",
      'const engine = new Engine();',
      "const r = await engine.analyse({ moves: ['e4'] }, { depth: 4 });",
      "console.log(legalMoves('startpos').length, r.depth, r.bestMove.san);",
      'await engine.close();',
    ].join('\n');
    writeFileSync(join(project, 'main.mjs'), script);
    const run = spawnSync(process.execPath, ['main.mjs'], { cwd: project, encoding: 'utf8', timeout: 60000 });
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^20 4 [KQRBN]?[a-h]?x?[a-h][1-8]\+?\n$/);

    // The types resolve through package.json's exports.
    writeFileSync(
      join(project, 'main.ts'),
      [
        "import { Engine, type AnalysisResult } from 'kestrel-chess';",
        'const engine: Engine = new Engine({ threads: 1 });',
        "const result: Promise<AnalysisResult> = engine.analyse('startpos', { depth: 2 });",
        'void result;',
        '// @ts-expect-error: a depth is a number',
        "void engine.analyse('startpos', { depth: 'deep' });",
      ].join('\n'),
    );
    const tsc = spawnSync(
      process.execPath,
      [
        join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'),
        ...['--ignoreConfig', '--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022'],
        ...['--types', '', 'main.ts'],
      ],
      { cwd: project, encoding: 'utf8' },
    );
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);

    // The command line comes with it.
    const version = spawnSync(join(project, 'node_modules', '.bin', 'kestrel'), ['--version'], { encoding: 'utf8' });
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
