// JIT warm-up: a few tiny searches run before the real work.
//
// V8 optimizes the search once it has run for a while and compiles in only
// what it has seen so far: a branch not yet taken (a promotion, en passant,
// castling, a pinned piece, a passed pawn, an opposite-bishop ending) becomes
// a bail-out. The first time the search meets one, V8 throws the optimized
// code away and compiles it again later. In a cold `bench` that happened
// about 40 times (`node --trace-deopt`), and the search alone was compiled 8
// times. Searching positions that take those branches first, to a small
// depth, takes under a tenth of a second and spares most of that churn.
// `bench` counts this time in its own; the search worker runs the warm-up
// once when it starts.

import { Position } from '../board/position.js';
import { SearchControl } from './control.js';
import { DEFAULT_SEARCH_OPTIONS, type GoParams } from './limits.js';
import { Searcher } from './search.js';

/** Each side to move, castling both ways, en passant, promotions (quiet, capturing, under-), pins, checks, mates and the endgame cases of the evaluation. */
export const WARM_UP_POSITIONS: readonly string[] = [
  'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1',
  '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1',
  'r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1',
  'r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1',
  'rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8',
  'rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3',
  '6k1/1R3ppp/8/8/8/8/5PPP/6K1 w - - 0 1',
  '8/5k2/3b4/8/2B1P3/5K2/8/8 b - - 0 1',
  '8/8/8/4k3/8/8/3NK3/8 w - - 0 1',
];

const WARM_UP_DEPTH = 5;
/** Per position, so that the whole warm-up stays short on any machine. */
const WARM_UP_NODES = 1000;
/** prime()'s search: enough to call every function of the search once. */
const PRIME_NODES = 300;

/**
 * The warm-up, a position at a time, with a small table of its own. Raising
 * control's stop flag (the engine host does when a job arrives) ends it within
 * a few hundred nodes.
 */
export class WarmUp {
  private readonly searcher = new Searcher(1);
  private next = 0;
  /** Nodes searched so far. */
  nodes = 0;

  constructor(private readonly control = new SearchControl()) {}

  /**
   * A first search of a few hundred nodes: V8 compiles each function when it
   * is first called, and that, not the nodes, is what the first search pays
   * (tens of milliseconds). The search worker does this before it reports
   * ready, so that a `go` sent after `readyok` starts at once.
   */
  prime(): void {
    if (this.nodes === 0) this.search(WARM_UP_POSITIONS[0], PRIME_NODES);
  }

  /** Searches the next position; false once every position has been searched or the warm-up was stopped. */
  step(): boolean {
    if (this.next >= WARM_UP_POSITIONS.length || this.control.stopped) return false;
    this.search(WARM_UP_POSITIONS[this.next++], WARM_UP_NODES);
    return this.next < WARM_UP_POSITIONS.length && !this.control.stopped;
  }

  private search(fen: string, nodes: number): void {
    const params: GoParams = { depth: WARM_UP_DEPTH, nodes, infinite: false, ponder: false, searchmoves: [] };
    this.searcher.clear();
    this.searcher.go({ pos: new Position(fen), params, options: DEFAULT_SEARCH_OPTIONS, control: this.control });
    this.nodes += this.searcher.nodes;
  }
}

/** The whole warm-up; returns the nodes searched. */
export function warmUp(): number {
  const warm = new WarmUp();
  while (warm.step());
  return warm.nodes;
}
