// `bench`: a fixed set of positions searched to a fixed depth with a fresh
// 16 MB table, single-threaded. The total node count is a signature of the
// search: it changes exactly when search or evaluation behaviour changes, and
// commits that change either quote it as `Bench: <nodes>`.
//
// runThreadBench (`kestrel bench --threads N`) measures parallel search
// instead: time to depth and nps over the same positions, N threads against
// one, alternating within one run. Its node counts vary from run to run.

import { moveToUci } from '../board/notation.js';
import { Position } from '../board/position.js';
import { SearchControl } from './control.js';
import { DEFAULT_SEARCH_OPTIONS, type GoParams } from './limits.js';
import { Searcher } from './search.js';
import type { HelperThreads } from './threads.js';
import { WARM_UP_POSITIONS, warmUp } from './warmup.js';

/**
 * Deep enough that the search, not V8's start-up, sets the speed: the first
 * 100-200 ms of a process run partly uncompiled code (see warmup.ts), a sixth
 * of a depth-10 bench but a twentieth of this one (about three seconds).
 */
export const DEFAULT_BENCH_DEPTH = 12;
/** The table every bench search starts with, cleared. */
const BENCH_HASH_MB = 16;

/** Openings (start position and UHO lines), middlegames (Win at Chess) and endgames (perft suite and classics). */
export const BENCH_POSITIONS: readonly string[] = [
  'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
  'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1',
  'r1bq1rk1/ppp2ppp/5n2/2bp4/2NPP3/2P5/PP3PPP/RNBQK2R w KQ - 0 9',
  'r1b1kb1r/pp1npppp/2p5/7q/2P5/4QN2/PP1P1PPP/R1B1KB1R w KQkq - 1 9',
  'r1b1k2r/1pqnbppp/2pp1n2/p3p3/2PPPPP1/2N2N1P/PP6/R1BQKB1R w KQkq - 1 9',
  'r2qkb1r/1p1b1p1p/p2ppnp1/2p5/4P3/2NP1N1P/PPP2PP1/R1BQ1RK1 w kq - 0 9',
  'rnbqk2r/p1p2ppp/1p1p4/4n3/2P2N2/4P3/PP1Q1PPP/RN2KB1R w KQkq - 0 9',
  'rnb1k2r/ppq1bppp/2p1p3/3nP3/2B5/2N2N2/PPP2PPP/R1BQ1RK1 w kq - 1 9',
  'rn1q1rk1/2pbppbp/p2p1np1/1p4B1/2BPP3/2N2N2/PPP2PPP/R2QR1K1 w - - 0 9',
  'r1bq1rk1/1p1nppbp/p1pp1np1/8/2PPPB2/2N2N2/PP2BPPP/R2Q1RK1 w - - 0 9',
  'r1b1k2r/pp1nbppp/1qp1pn2/3p4/2PP4/2NBPN2/PPQB1PPP/R3K2R w KQkq - 7 9',
  'r1b1qrk1/pp1nppbp/3p1np1/2p5/2PP1B2/2N1PN1P/PP2BPP1/R2QK2R w KQ - 3 9',
  'rn1qkb1r/pp3pp1/2p1p2n/3pP2p/3P4/2P2b1P/PP2BPP1/RNBQ1RK1 w kq - 0 9',
  'r1bqkb1r/ppp2ppp/3p1n2/3Pp3/2P1Pn2/2N2N2/PP2QPPP/R1B1KB1R w KQkq - 3 9',
  'r1b1kb1r/pp1npp1p/3p1np1/2q5/2BNPP2/2N5/PPP3PP/R1BQ1RK1 w kq - 5 9',
  'rnbq1rk1/p1pp2pp/1p2p3/5p2/2PPn3/3BP3/PPQ2PPP/R1B1K1NR w KQ - 0 9',
  'r1bqk1nr/pp1n3p/2pp1ppb/4p3/3PP3/2N2NP1/PPP1QPBP/R1B2RK1 w kq - 4 9',
  'rnbq1rk1/pp2b2p/2p1pnp1/3p1p2/2PP4/1P2PN2/PB2BPPP/RN1Q1RK1 w - - 0 9',
  '2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1',
  '1k5r/pppbn1pp/4q1r1/1P3p2/2NPp3/1QP5/P4PPP/R1B1R1K1 w - - 0 1',
  '8/p1q2pkp/2Pr2p1/8/P3Q3/6P1/5P1P/2R3K1 w - - 0 1',
  '2b3k1/4rrpp/p2p4/2pP2RQ/1pP1Pp1N/1P3P1P/1q6/6RK w - - 0 1',
  '1r1r1qk1/p2n1p1p/bp1Pn1pQ/2pNp3/2P2P1N/1P5B/P6P/3R1RK1 w - - 0 1',
  'r4rk1/1bR1bppp/4pn2/1p2N3/1P6/P3P3/4BPPP/3R2K1 b - - 0 1',
  '6k1/5p2/p5np/4B3/3P4/1PP1q3/P3r1QP/6RK w - - 0 1',
  'rnbqkb1r/1p3ppp/5N2/1p2p1B1/2P5/8/PP2PPPP/R2QKB1R b KQkq - 0 1',
  '3r1r1k/1b2b1p1/1p5p/2p1Pp2/q1B2P2/4P2P/1BR1Q2K/6R1 b - - 0 1',
  'r1bq4/1p4kp/3p1n2/p4pB1/2pQ4/8/1P4PP/4RRK1 w - - 0 1',
  '3r3k/3r1P1p/pp1Nn3/2pp4/7Q/6R1/Pq4PP/5RK1 w - - 0 1',
  'r1b3r1/4qk2/1nn1p1p1/3pPp1P/p4P2/1p3BQN/PKPBN3/3R3R b - - 0 1',
  '5bk1/p4ppp/Qp6/4B3/1P6/Pq2P1P1/2rr1P1P/R4RK1 b - - 0 1',
  '4kb1r/2q2p2/r2p4/pppBn1B1/P6P/6Q1/1PP5/2KRR3 w k - 0 1',
  '4R3/4q1kp/6p1/1Q3b2/1P1b1P2/6KP/8/8 b - - 0 1',
  '2rq1rk1/pp3ppp/2n2b2/4NR2/3P4/PB5Q/1P4PP/3R2K1 w - - 0 1',
  '4r1k1/pq3p1p/2p1r1p1/2Q1p3/3nN1P1/1P6/P1P2P1P/3RR1K1 w - - 0 1',
  '2k4B/bpp1qp2/p1b5/7p/1PN1n1p1/2Pr4/P5PP/R3QR1K b - - 0 1',
  '4k3/8/8/8/8/8/8/4K2R w K - 0 1',
  'r3k2r/8/8/8/8/8/8/2R1K2R w Kkq - 0 1',
  '8/8/8/8/8/8/1k6/R3K3 b Q - 0 1',
  '8/8/4k3/3Nn3/3nN3/4K3/8/8 w - - 0 1',
  'B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1',
  '6KQ/8/8/8/8/8/8/7k b - - 0 1',
  '8/8/8/8/8/4k3/4P3/4K3 w - - 0 1',
  '8/8/3k4/3p4/8/3P4/3K4/8 b - - 0 1',
  'k7/8/8/7p/6P1/8/8/K7 b - - 0 1',
  '3k4/3pp3/8/8/8/8/3PP3/3K4 w - - 0 1',
  '8/8/8/8/5k2/8/4P3/4K3 w - - 0 1',
  '8/8/4k3/8/2p5/8/B2K4/8 w - - 0 1',
  '6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1',
  '8/5pk1/6p1/8/3Q4/8/5PPK/q7 b - - 0 1',
];

export interface BenchResult {
  nodes: number;
  ms: number;
}

/**
 * Searches every bench position to `depth`, printing one line each and the
 * totals. With runs > 1 the whole set is searched that many times in this
 * process (positions printed once, then a line per pass) and Nodes/second is
 * the median pass: the first pass runs partly before the JIT has compiled the
 * search, later ones show the speed a game settles at. The JIT warm-up
 * (warmup.ts) runs first and its time counts in the first pass.
 */
export function runBench(depth: number = DEFAULT_BENCH_DEPTH, emit: (line: string) => void = (l) => console.log(l), runs = 1): BenchResult {
  const searcher = new Searcher(BENCH_HASH_MB);
  const control = new SearchControl();
  const params: GoParams = { depth, infinite: false, ponder: false, searchmoves: [] };
  const passes: BenchResult[] = [];
  const w0 = performance.now();
  const warmUpNodes = warmUp();
  const warmUpMs = performance.now() - w0;
  emit(`Warm-up: ${WARM_UP_POSITIONS.length} positions, ${warmUpNodes} nodes, ${Math.round(warmUpMs)} ms (counted in the time below)`);
  for (let run = 1; run <= runs; run++) {
    let nodes = 0;
    let ms = run === 1 ? warmUpMs : 0;
    BENCH_POSITIONS.forEach((fen, i) => {
      const pos = new Position(fen);
      searcher.clear();
      control.reset();
      const t0 = performance.now();
      const result = searcher.go({ pos, params, options: DEFAULT_SEARCH_OPTIONS, control });
      ms += performance.now() - t0;
      nodes += searcher.nodes;
      if (run === 1) {
        emit(
          `Position ${String(i + 1).padStart(2)}/${BENCH_POSITIONS.length}: bestmove ${moveToUci(pos, result.move).padEnd(5)} nodes ${searcher.nodes}  ${fen}`,
        );
      }
    });
    passes.push({ nodes, ms });
    if (runs > 1) emit(`Pass ${run}/${runs}: ${Math.round(ms)} ms, ${Math.round((nodes * 1000) / Math.max(1, ms))} nodes/second`);
  }
  // Every pass searches the same tree; the time is the median pass's.
  const nodes = passes[0].nodes;
  const ms = median(passes.map((p) => p.ms));
  emit('===========================');
  emit(`Total time (ms): ${Math.round(ms)}`);
  emit(`Nodes searched: ${nodes}`);
  emit(`Nodes/second: ${Math.round((nodes * 1000) / Math.max(1, ms))}`);
  return { nodes, ms };
}

/** What runThreadBench needs of a pool of helper threads (src/engine/thread-pool.ts). */
export interface BenchHelpers {
  /** Number of helpers (threads - 1). */
  readonly helpers: number;
  /** The helpers for one search of `fen`. */
  forSearch(position: { fen: string; moves: string[]; chess960: boolean }): HelperThreads | null;
  /** Clears the helpers' move-ordering statistics. */
  clear(): void;
}

interface TimedPass {
  ms: number;
  nodes: number;
  /** CPU time of the whole process (all threads), to tell a busy machine from poor scaling. */
  cpuMs: number;
}

/** Every bench position searched to `depth` from a clear table; the wall time and the nodes of all threads. */
function timeToDepth(depth: number, searcher: Searcher, pool: BenchHelpers | null): TimedPass {
  const control = new SearchControl();
  const params: GoParams = { depth, infinite: false, ponder: false, searchmoves: [] };
  let nodes = 0;
  let ms = 0;
  const cpu0 = process.cpuUsage();
  for (const fen of BENCH_POSITIONS) {
    const pos = new Position(fen);
    searcher.clear();
    pool?.clear();
    control.reset();
    const t0 = performance.now();
    const helpers = pool === null ? null : pool.forSearch({ fen, moves: [], chess960: false });
    searcher.go({ pos, params, options: DEFAULT_SEARCH_OPTIONS, control, role: helpers === null ? undefined : { kind: 'main', helpers } });
    ms += performance.now() - t0;
    nodes += searcher.totalNodes();
  }
  const cpu = process.cpuUsage(cpu0);
  return { ms, nodes, cpuMs: (cpu.user + cpu.system) / 1000 };
}

function median(values: number[]): number {
  const v = [...values].sort((a, b) => a - b);
  const m = v.length >> 1;
  return v.length % 2 === 1 ? v[m] : (v[m - 1] + v[m]) / 2;
}

/**
 * Time to depth with 1 thread and with 1 + pool.helpers threads, `runs`
 * times, alternating which goes first; prints every pass and the medians.
 * An untimed pass first warms every thread's compiled code (as a game's
 * first moves do), so that the runs compare steady speeds.
 */
export function runThreadBench(
  depth: number,
  runs: number,
  pool: BenchHelpers,
  emit: (line: string) => void = (l) => console.log(l),
): void {
  const threads = pool.helpers + 1;
  const single = new Searcher(BENCH_HASH_MB);
  const parallel = new Searcher(BENCH_HASH_MB);
  const one: TimedPass[] = [];
  const many: TimedPass[] = [];
  const show = (run: number, n: number, p: TimedPass): void =>
    emit(
      `run ${run} threads ${String(n).padStart(2)}: time ${String(Math.round(p.ms)).padStart(6)} ms  nodes ${String(p.nodes).padStart(9)}` +
        `  nps ${String(Math.round((p.nodes * 1000) / p.ms)).padStart(7)}  cpu ${Math.round((p.cpuMs * 100) / p.ms)}%`,
    );
  emit(
    `Time to depth ${depth} over ${BENCH_POSITIONS.length} positions, ${BENCH_HASH_MB} MB hash: 1 thread against ${threads}, ${runs} runs`,
  );
  timeToDepth(Math.min(depth, 9), parallel, pool);
  for (let run = 1; run <= runs; run++) {
    const order = run % 2 === 1 ? [1, threads] : [threads, 1];
    for (const n of order) {
      const pass = n === 1 ? timeToDepth(depth, single, null) : timeToDepth(depth, parallel, pool);
      (n === 1 ? one : many).push(pass);
      show(run, n, pass);
    }
  }
  const t1 = median(one.map((p) => p.ms));
  const tn = median(many.map((p) => p.ms));
  const nps1 = median(one.map((p) => (p.nodes * 1000) / p.ms));
  const npsN = median(many.map((p) => (p.nodes * 1000) / p.ms));
  emit('===========================');
  emit(`Median time (ms): 1 thread ${Math.round(t1)}, ${threads} threads ${Math.round(tn)}`);
  emit(`Median nps: 1 thread ${Math.round(nps1)}, ${threads} threads ${Math.round(npsN)}`);
  emit(`Time-to-depth speed-up: ${(t1 / tn).toFixed(2)}x`);
  emit(`Nps speed-up: ${(npsN / nps1).toFixed(2)}x`);
}
