// `genfens N seed S book <None|file> [extra]`: the opening positions of an
// OpenBench data generation run (docs/openbench.md). OpenBench's client runs
// `<engine> "genfens N seed S book B" quit` once per thread, reads every
// line `info string genfens <FEN>`, and has fastchess play games from them.
//
// The openings are self-play's (selfplay.ts): a random book position (or the
// start position), a few random legal plies, and a short search that throws
// away lopsided ones. The N positions are distinct (by their first four FEN
// fields), and the same request gives the same lines: the random numbers
// come from the seed alone and the searcher forgets everything before each
// search. Extra words may change the settings: `plies <n>`, `maxscore <cp>`,
// `nodes <n>` (the search's soft limit; the hard one is twice that).

import { readFileSync } from 'node:fs';
import { FenError, type Position } from '../board/position.js';
import { MAX_MOVES } from '../board/types.js';
import { SearchControl } from '../search/control.js';
import { DEFAULT_SEARCH_OPTIONS, type GoParams } from '../search/limits.js';
import { Searcher } from '../search/search.js';
import { mixSeed, mulberry32 } from '../util/random.js';
import { DEFAULT_SELFPLAY_SETTINGS, drawOpening } from './selfplay.js';

/** Random plies after a book position: the book gives the variety, these make each opening its own. */
const BOOK_RANDOM_PLIES = 2;
/** The searcher's table: ample for a few thousand nodes. */
const HASH_MB = 4;
/** Draws per position asked for before giving up (a tiny book with no random plies has few distinct openings; every position of a book may be decided or lopsided). */
const MAX_DRAWS_PER_POSITION = 100;

/** The extra words genfens takes, and the setting each sets. */
const EXTRA: Record<string, 'randomPlies' | 'maxOpeningScore' | 'softNodes'> = {
  plies: 'randomPlies',
  maxscore: 'maxOpeningScore',
  nodes: 'softNodes',
};

export interface GenfensRequest {
  count: number;
  seed: number;
  /** EPD or FEN file of starting positions; null: the start position. */
  book: string | null;
  randomPlies: number;
  maxOpeningScore: number;
  softNodes: number;
}

/** The request of `genfens`'s arguments (the words after it), or an error message. */
export function parseGenfens(args: readonly string[]): GenfensRequest | string {
  const usage = 'expected "genfens <N> seed <S> book <None|file> [plies <n>] [maxscore <cp>] [nodes <n>]"';
  const count = Number(args[0]);
  if (args.length < 5 || args[1] !== 'seed' || args[3] !== 'book') return usage;
  const seed = Number(args[2]);
  if (!Number.isSafeInteger(count) || count < 0) return `N must be a non-negative integer, got '${args[0]}'`;
  if (!Number.isSafeInteger(seed) || seed < 0) return `the seed must be a non-negative integer, got '${args[2]}'`;
  const book = args[4].toLowerCase() === 'none' ? null : args[4];
  const d = DEFAULT_SELFPLAY_SETTINGS;
  const request: GenfensRequest = {
    count,
    seed,
    book,
    randomPlies: book === null ? d.randomPlies : BOOK_RANDOM_PLIES,
    maxOpeningScore: d.maxOpeningScore,
    softNodes: d.softNodes,
  };
  for (let i = 5; i < args.length; i += 2) {
    const key = args[i].toLowerCase();
    const value = Number(args[i + 1]);
    const min = key === 'nodes' ? 1 : 0;
    if (!(key in EXTRA)) return `unknown setting '${args[i]}'; ${usage}`;
    if (!Number.isSafeInteger(value) || value < min) return `${key} needs an integer of at least ${min}, got '${args[i + 1]}'`;
    request[EXTRA[key]] = value;
  }
  return request;
}

/**
 * The positions of an EPD or FEN file as FEN: each line's first four fields,
 * with its hmvc and fmvn or `0 1`. Lines are only shaped here, not checked: a
 * large book (UHO_4060_v4.epd, 241,670 lines) would take seconds to check,
 * and OpenBench gives up on a genfens silent for 15. A bad line is found
 * when it is drawn (generateFens).
 */
function readBookPositions(path: string): string[] {
  const fens: string[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const fields = line.trim().split(/\s+/);
    // Not a position (a comment, a header, a PGN line): skipped.
    if (fields.length < 4 || fields[0].split('/').length !== 8 || !/^[wb]$/.test(fields[1])) continue;
    const hmvc = /\bhmvc\s+(\d+)/.exec(line)?.[1];
    const fmvn = /\bfmvn\s+(\d+)/.exec(line)?.[1];
    // A plain FEN line has its two counters as fields five and six.
    const plain = fields.length >= 6 && /^\d+$/.test(fields[4]) && /^\d+$/.test(fields[5]);
    const counters = plain ? `${fields[4]} ${fields[5]}` : `${hmvc ?? 0} ${fmvn ?? 1}`;
    fens.push(`${fields.slice(0, 4).join(' ')} ${counters}`);
  }
  return fens;
}

let searcher: Searcher | null = null;

/** Writes `info string genfens <FEN>` for each of the request's positions, one at a time as it is found. */
export function generateFens(request: GenfensRequest, write: (line: string) => void): void {
  const book = request.book === null ? [] : readBookPositions(request.book);
  if (request.book !== null && book.length === 0) throw new Error(`no positions in ${request.book}`);
  searcher ??= new Searcher(HASH_MB);
  const s = searcher;
  const control = new SearchControl();
  const params: GoParams = {
    nodes: 2 * request.softNodes,
    softNodes: request.softNodes,
    infinite: false,
    ponder: false,
    searchmoves: [],
  };
  const score = (pos: Position): number => {
    s.clear();
    control.reset();
    return s.go({ pos, params, options: DEFAULT_SEARCH_OPTIONS, control }).score;
  };
  const settings = { book, randomPlies: request.randomPlies, maxOpeningScore: request.maxOpeningScore };
  // Seeds up to 2^53: both halves feed the generator.
  const random = mulberry32(mixSeed(request.seed >>> 0, Math.floor(request.seed / 0x100000000)));
  const moves = new Int32Array(MAX_MOVES);
  const seen = new Set<string>();
  let badLines = 0;
  let rejected = 0;
  for (let draws = 0; seen.size < request.count; draws++) {
    if (draws >= MAX_DRAWS_PER_POSITION * request.count) {
      const repeats = draws - badLines - rejected - seen.size;
      throw new Error(
        `only ${seen.size} distinct openings in ${draws} draws: ${badLines} book lines that are not legal positions, ` +
          `${rejected} openings decided or further than ${request.maxOpeningScore} cp from level, ${repeats} repeats`,
      );
    }
    let opening: Position | null;
    try {
      opening = drawOpening(random, settings, moves, score);
    } catch (e) {
      if (!(e instanceof FenError)) throw e;
      badLines++; // a book line that is not a legal position: drawn again
      continue;
    }
    if (opening === null) {
      rejected++; // decided or lopsided: drawn again
      continue;
    }
    const fen = opening.fen();
    const key = fen.split(' ').slice(0, 4).join(' ');
    if (seen.has(key)) continue;
    seen.add(key);
    write(`info string genfens ${fen}`);
  }
}
