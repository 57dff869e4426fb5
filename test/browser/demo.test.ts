// The demo page (web/) in a real browser: Debian's Chromium, headless,
// driven by playwright-core, loads the page from a local static server
// (scripts/serve.mjs), plays moves by clicking, and checks the board and the
// analysis; a screenshot is saved for people to look at. Run when
// /usr/bin/chromium exists (`apt-get install chromium`); skipped loudly
// otherwise.

import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, type Page, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../uci/engine-process.js';
import { scratchDir } from '../scratch.js';

const CHROMIUM = process.env.KESTREL_CHROMIUM ?? '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) {
  console.warn(
    `\n${'*'.repeat(78)}\n*** SKIPPED: the browser test: ${CHROMIUM} is missing (apt-get install chromium) ***\n${'*'.repeat(78)}\n`,
  );
}

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Starts scripts/serve.mjs on a free port; resolves with its URL. */
function serve(isolated: boolean): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [join(ROOT, 'scripts', 'serve.mjs'), '--port', '0', ...(isolated ? [] : ['--no-isolation'])], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      out += chunk;
      const m = out.match(/Serving (http:\S+)/);
      if (m !== null) resolve({ url: m[1], child });
    });
    child.on('exit', (code) => reject(new Error(`the server exited with ${code}: ${out}`)));
  });
}

describe.skipIf(!haveChromium)('the demo page in Chromium', () => {
  const servers: ChildProcess[] = [];
  let context: BrowserContext;
  const errors: string[] = [];

  beforeAll(async () => {
    const profile = scratchDir('kestrel-chromium-');
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: FLAGS });
  }, 60000);

  afterAll(async () => {
    await context?.close();
    for (const s of servers) s.kill();
  });

  async function open(isolated: boolean): Promise<Page> {
    const server = await serve(isolated);
    servers.push(server.child);
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.url}web/?time=300`);
    await page.waitForSelector('#status[data-state="your-move"]', { timeout: 30000 });
    return page;
  }

  /** Clicks from, then to; waits until Kestrel has answered. */
  async function play(page: Page, from: string, to: string): Promise<void> {
    const plies = await page.evaluate(() => (globalThis as unknown as Demo).kestrelDemo.game.moves.length);
    await page.click(`[data-square="${from}"]`);
    await page.click(`[data-square="${to}"]`);
    await page.waitForFunction((n) => (globalThis as unknown as Demo).kestrelDemo.game.moves.length >= n + 2, plies, { timeout: 30000 });
    await page.waitForSelector('#status[data-state="your-move"], #status[data-state="over"]');
  }

  const pieceOn = (page: Page, square: string): Promise<string | null> =>
    page.$eval(`[data-square="${square}"]`, (el) => el.querySelector('[data-piece]')?.getAttribute('data-piece') ?? null);

  async function checkAnalysis(page: Page): Promise<void> {
    // The analysis of the position after Kestrel's move runs at once.
    await page.waitForFunction(() => /^\d+\/\d+$/.test(document.getElementById('depth')!.textContent ?? ''), null, { timeout: 30000 });
    expect(await page.textContent('#eval')).toMatch(/^([+-]\d+\.\d\d|#-?\d+)$/);
    expect(await page.textContent('#pv')).toMatch(/^\d+\.(…)? [KQRBNa-h]/);
  }

  it('plays a game against Kestrel with several threads, showing its analysis, when the page is cross-origin isolated', async () => {
    const page = await open(true);
    expect(await page.textContent('#engine-info')).toMatch(/^[2-4] threads \(the page is cross-origin isolated\)$/);
    await play(page, 'e2', 'e4');
    expect(await pieceOn(page, 'e4')).toBe('wP');
    expect(await pieceOn(page, 'e2')).toBeNull();
    await play(page, 'd2', 'd4');
    expect(await pieceOn(page, 'd2')).toBeNull(); // (Kestrel may have taken on d4)
    // A third move: the first legal one, whatever Kestrel played.
    const [move] = await page.evaluate(() => (globalThis as unknown as Demo).kestrelDemo.legalMoves().map((m) => m.uci));
    await play(page, move.slice(0, 2), move.slice(2, 4));
    const game = await page.evaluate(() => (globalThis as unknown as Demo).kestrelDemo.game);
    expect(game.moves.slice(0, 5)).toEqual(['e2e4', game.moves[1], 'd2d4', game.moves[3], move]);
    // Kestrel's last move is on the board: a black piece on its destination.
    const reply = game.moves[5];
    expect(await pieceOn(page, reply.slice(2, 4))).toMatch(/^b/);
    expect(await page.$$eval('#moves li', (items) => items.length)).toBe(3);
    await checkAnalysis(page);
    const shot = join(tmpdir(), 'kestrel-demo.png'); // kept to look at; each run overwrites it
    await page.screenshot({ path: shot, fullPage: true });
    console.log(`browser test screenshot: ${shot}`);
    expect(errors).toEqual([]);
  }, 120000);

  /** Talks UCI to the worker script: sends `first`; once a line matches `when`, sends `then`; resolves at the first bestmove. */
  const uci = (page: Page, first: string[], when: string, then: string[]): Promise<string[]> =>
    page.evaluate(
      ([first, when, then]) =>
        new Promise<string[]>((resolve) => {
          const seen: string[] = [];
          const worker = new Worker('/dist/browser/kestrel-worker.js');
          let sent = false;
          worker.onmessage = (e) => {
            const line = String(e.data);
            seen.push(line);
            if (!sent && new RegExp(when).test(line)) {
              sent = true;
              for (const command of then) worker.postMessage(command);
            }
            if (line.startsWith('bestmove')) {
              // Then the worker still answers.
              worker.onmessage = (e2) => {
                seen.push(String(e2.data));
                worker.terminate();
                resolve(seen);
              };
              worker.postMessage('isready');
            }
          };
          for (const command of first) worker.postMessage(command);
        }),
      [first, when, then] as const,
    );

  it('serves UCI over postMessage from the worker script, as stockfish.js does', async () => {
    const page = await open(true);
    const lines = await uci(
      page,
      ['uci', 'setoption name Threads value 2\nisready', 'position startpos moves e2e4', 'go infinite'],
      '^info depth 6 ',
      ['stop'],
    );
    expect(lines).toContain('uciok');
    expect(lines[lines.indexOf('uciok') + 1]).toBe('readyok');
    expect(lines.some((l) => /^info depth 6 .* pv /.test(l))).toBe(true);
    expect(lines.at(-2)).toMatch(/^bestmove [a-h][1-8][a-h][1-8]/);
    expect(lines.at(-1)).toBe('readyok');
    expect(lines.filter((l) => l.includes('error'))).toEqual([]);
  }, 60000);

  it('plays with one thread when the page is not cross-origin isolated', async () => {
    const page = await open(false);
    expect(await page.textContent('#engine-info')).toBe('1 thread (the page is not cross-origin isolated)');
    // The analysis of the start position runs now; moving stops it (without shared memory: by ending its worker).
    await page.waitForFunction(() => /^\d+\/\d+$/.test(document.getElementById('depth')!.textContent ?? ''), null, { timeout: 30000 });
    await play(page, 'g1', 'f3');
    expect(await pieceOn(page, 'f3')).toBe('wN');
    await checkAnalysis(page);
    // UCI: an infinite search answers stop (its worker is replaced) with the best line's move, and the engine goes on.
    const lines = await uci(page, ['uci', 'setoption name Threads value 2', 'position startpos', 'go infinite'], '^info depth 5 ', [
      'stop',
    ]);
    expect(lines).toContain(
      'info string Threads: this host has no shared memory (a page that is not cross-origin isolated); searching with 1 thread',
    );
    const pv = lines
      .filter((l) => l.startsWith('info depth'))
      .at(-1)!
      .split(' pv ')[1]
      .split(' ')[0];
    expect(lines.at(-2)).toBe(`bestmove ${pv}`);
    expect(lines.at(-1)).toBe('readyok');
    expect(errors).toEqual([]);
  }, 120000);
});

interface Demo {
  kestrelDemo: { game: { moves: string[] }; legalMoves(): Array<{ uci: string; san: string }> };
}
