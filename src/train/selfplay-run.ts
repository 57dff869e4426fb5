// `kestrel selfplay`: self-play games in worker threads, appended to a
// viriformat file. Game i is always the same game (selfplay.ts), and the
// games are written in index order, so the file holds games 0..n-1 of the
// run seed: a run that is interrupted (a half-written last game is cut off
// when the next run opens the file) resumes at game n.
//
// With a data store (store.ts), the run starts from the store's games of
// the same network, seed and settings when the file holds fewer, and every
// chunkMinutes, and when it ends, the games written since the store's last
// chunk become a new chunk of the store.

import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { type Worker, parentPort, workerData } from 'node:worker_threads';
import { EMBEDDED_NETWORK, type NetworkChoice, USE_NNUE_DEFAULT, applyNetworkChoice } from '../eval/index.js';
import { startWorker, workerRole } from '../platform/node.js';
import { Searcher } from '../search/search.js';
import { buildCommit } from '../util/build.js';
import { type SelfPlaySettings, SelfPlayer, settingsText } from './selfplay.js';
import { type RunKey, addChunk, readManifest, restoreRun, runChunkPath, runRows } from './store.js';
import { RESULT_BLACK_WIN, RESULT_WHITE_WIN, indexGames, notGames, summariseGames } from './viriformat.js';
import { errorText } from '../util/errors.js';
import { clockText } from '../util/duration.js';

const ROLE = 'selfplay-worker';
/** Table size of each thread's searcher: ample for a few thousand nodes a move. */
const HASH_MB = 8;
/** How often the progress line is written: on a terminal it is rewritten in place, in a log it is appended. */
const PROGRESS_MS = process.stderr.isTTY ? 1000 : 60_000;

export interface SelfPlayRun {
  out: string;
  threads: number;
  seed: number;
  /** Stop once the file holds this many games, or this many positions (plies), or after this many hours. */
  games?: number;
  positions?: number;
  hours?: number;
  settings: SelfPlaySettings;
  /** The evaluation the games are played with (file: the network file's bytes, which name it in the store); absent: the engine's default. */
  network?: NetworkChoice & { file?: Uint8Array };
  /** A data store to resume from and to write chunks to, every chunkMinutes and at the end. */
  store?: string;
  chunkMinutes?: number;
}

/** The network's name as the data store records it: 'hce' for the hand-crafted evaluation. */
function networkLabel(choice: (NetworkChoice & { file?: Uint8Array }) | undefined): string {
  const use = choice?.use ?? USE_NNUE_DEFAULT;
  if (!use) return 'hce';
  if (choice?.file) return `kestrel-${createHash('sha256').update(choice.file).digest('hex').slice(0, 12)}`;
  return EMBEDDED_NETWORK.replace(/\.nnue$/, '');
}

/**
 * Brings the file up to the store's games of the run (the store is
 * authoritative: a file that holds fewer games is made again from it; one
 * that holds as many or more must agree with it). Returns the store's games.
 */
function syncWithStore(out: string, store: string, run: RunKey, log: (line: string) => void): number {
  const rows = runRows(readManifest(store), run);
  const stored = rows.reduce((n, r) => n + r.games, 0);
  if (stored === 0) return 0;
  const bytes = existsSync(out) ? readFileSync(out) : Buffer.alloc(0);
  const index = indexGames(bytes);
  if (index.offsets.length < stored) {
    writeFileSync(out, restoreRun(store, run));
    log(`${out}: made from the store's ${rows.length} chunks of seed ${run.seed} (games 0-${stored - 1})`);
    return stored;
  }
  let at = 0;
  for (const r of rows) {
    const part = bytes.subarray(at, at + r.bytes);
    if (createHash('sha256').update(part).digest('hex') !== r.sha256)
      throw new Error(`${out} differs from the store's ${r.file}: another run's file? (move it away to start from the store)`);
    at += r.bytes;
  }
  return stored;
}

interface WorkerInput {
  kestrelRole: typeof ROLE;
  seed: number;
  settings: SelfPlaySettings;
  network?: NetworkChoice;
}

type ToWorker = { index: number };
type FromWorker = { index: number; bytes: Uint8Array; plies: number; result: number } | { error: string };

/** What the output file already holds (after cutting off a half-written game). */
function resume(out: string, log: (line: string) => void): { games: number; positions: number } {
  if (!existsSync(out)) return { games: 0, positions: 0 };
  const bytes = readFileSync(out);
  const index = indexGames(bytes);
  const problem = notGames(bytes, index);
  if (problem !== null) throw new Error(`${out} is not viriformat training data (${problem}); it is left as it is: give --out a new file`);
  if (index.completeBytes < bytes.length) {
    log(`${out}: cut off ${bytes.length - index.completeBytes} bytes of a half-written game at the end`);
    truncateSync(out, index.completeBytes);
  }
  const { games, positions } = summariseGames(index);
  if (games > 0) log(`${out}: ${games} games (${positions} positions) already there; resuming at game ${games}`);
  return { games, positions };
}

/** Plays the run; resolves with the games and positions written by it. */
export function runSelfPlay(
  run: SelfPlayRun,
  log: (line: string) => void = (l) => process.stderr.write(`${l}\n`),
): Promise<{ games: number; positions: number }> {
  /** The progress line: rewritten in place on a terminal, appended to a log. */
  const status = (line: string, final: boolean): void => {
    if (!process.stderr.isTTY) log(line);
    else process.stderr.write(`\r${line}\x1b[K${final ? '\n' : ''}`);
  };
  const key: RunKey = { network: networkLabel(run.network), seed: String(run.seed), settings: settingsText(run.settings) };
  let chunked = run.store === undefined ? 0 : syncWithStore(run.out, run.store, key, log);
  const before = resume(run.out, log);
  const fd = openSync(run.out, 'a');
  const started = performance.now();
  const deadline = run.hours !== undefined ? started + run.hours * 3600_000 : Infinity;
  let nextIndex = before.games;
  let nextWrite = before.games;
  let positions = before.positions;
  const results = [0, 0, 0];
  const pending = new Map<number, { bytes: Uint8Array; plies: number; result: number }>();
  let stopping = false;
  let lastProgress = 0;
  let lastChunk = started;

  /** The games written since the store's last chunk become a new chunk (a failure is logged, and the games wait for the next). */
  const chunk = (): void => {
    lastChunk = performance.now();
    if (run.store === undefined || nextWrite <= chunked) return;
    try {
      const bytes = readFileSync(run.out);
      const index = indexGames(bytes);
      const end = nextWrite < index.offsets.length ? index.offsets[nextWrite] : index.completeBytes;
      const games = nextWrite - chunked;
      const file = runChunkPath(key, chunked, games);
      const row = addChunk(run.store, bytes.subarray(index.offsets[chunked], end), { ...key, bundle: buildCommit(), first: chunked }, file);
      chunked = nextWrite;
      log(
        `store: row ${row.id}, ${file}: games ${row.first}-${row.first + row.games - 1}, ${row.positions} positions, ${row.packed} bytes`,
      );
    } catch (e) {
      log(`store: no chunk written: ${errorText(e)}`);
    }
  };
  const chunkMs = (run.chunkMinutes ?? 60) * 60_000;

  const enough = (): boolean =>
    stopping ||
    performance.now() >= deadline ||
    (run.games !== undefined && nextIndex >= run.games) ||
    (run.positions !== undefined && positions >= run.positions);

  const progress = (final: boolean): void => {
    const now = performance.now();
    if (!final && now - lastProgress < PROGRESS_MS) return;
    lastProgress = now;
    const games = nextWrite - before.games;
    const added = positions - before.positions;
    const rate = added / Math.max(1e-3, (now - started) / 1000);
    const total = Math.max(1, games);
    const split = `W ${((100 * results[RESULT_WHITE_WIN]) / total).toFixed(0)}% D ${((100 * (games - results[0] - results[2])) / total).toFixed(0)}% B ${((100 * results[RESULT_BLACK_WIN]) / total).toFixed(0)}%`;
    let left = Infinity;
    if (run.hours !== undefined) left = deadline - now;
    if (run.games !== undefined && games > 0) left = Math.min(left, ((run.games - nextWrite) * (now - started)) / games);
    if (run.positions !== undefined && rate > 0) left = Math.min(left, ((run.positions - positions) / rate) * 1000);
    status(
      `games ${nextWrite} (+${games})  positions ${positions} (+${added})  ${Math.round(rate)} positions/s  ${split}` +
        (Number.isFinite(left) ? `  time left ${clockText(Math.round(left / 1000), 'always')}` : ''),
      final,
    );
  };

  return new Promise((resolve, reject) => {
    const workers: Worker[] = [];
    let busy = 0;
    const finish = (error?: Error): void => {
      for (const w of workers) void w.terminate();
      closeSync(fd);
      process.off('SIGINT', onSignal);
      progress(true);
      if (error === undefined) chunk();
      if (error !== undefined) reject(error);
      else resolve({ games: nextWrite - before.games, positions: positions - before.positions });
    };
    const dispatch = (worker: Worker): void => {
      if (enough()) {
        if (busy === 0) finish();
        return;
      }
      busy++;
      worker.postMessage({ index: nextIndex++ } satisfies ToWorker);
    };
    const onSignal = (): void => {
      if (stopping) {
        log('second interrupt: stopping now (the games in progress are lost)');
        finish();
        return;
      }
      stopping = true;
      log('interrupted: finishing the games in progress (interrupt again to stop at once)');
    };
    process.on('SIGINT', onSignal);

    for (let t = 0; t < run.threads; t++) {
      const worker = startWorker(import.meta.url, {
        kestrelRole: ROLE,
        seed: run.seed,
        settings: run.settings,
        // The network itself (its weights shared with the workers), without the file.
        network: run.network === undefined ? undefined : { use: run.network.use, net: run.network.net },
      } satisfies WorkerInput);
      workers.push(worker);
      worker.on('error', (e) => finish(e));
      worker.on('message', (m: FromWorker) => {
        if ('error' in m) {
          finish(new Error(`self-play worker: ${m.error}`));
          return;
        }
        busy--;
        pending.set(m.index, m);
        for (let g = pending.get(nextWrite); g !== undefined; g = pending.get(nextWrite)) {
          writeSync(fd, g.bytes);
          pending.delete(nextWrite);
          nextWrite++;
          positions += g.plies;
          results[g.result]++;
        }
        progress(false);
        if (run.store !== undefined && performance.now() - lastChunk >= chunkMs) chunk();
        dispatch(worker);
      });
      dispatch(worker);
    }
  });
}

/** The worker body: plays the games it is sent, one at a time. */
export function runSelfPlayWorker(): void {
  const input = workerData as WorkerInput;
  if (input.network !== undefined) applyNetworkChoice(input.network);
  const player = new SelfPlayer(new Searcher(HASH_MB), input.settings);
  parentPort!.on('message', (m: ToWorker) => {
    try {
      const game = player.play(input.seed, m.index);
      parentPort!.postMessage({ index: m.index, ...game } satisfies FromWorker, [game.bytes.buffer as ArrayBuffer]);
    } catch (e) {
      parentPort!.postMessage({ error: e instanceof Error ? (e.stack ?? e.message) : String(e) } satisfies FromWorker);
    }
  });
}

/** True in a self-play worker thread. */
export function isSelfPlayWorker(): boolean {
  return workerRole() === ROLE;
}

// Under tsx the worker loads this module itself (see platform/node.ts).
if (isSelfPlayWorker() && import.meta.url.endsWith('.ts')) runSelfPlayWorker();
