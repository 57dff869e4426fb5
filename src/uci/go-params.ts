// Parsing of the arguments of `go`. Every problem becomes a message (printed
// as an info string) and a sane default, never an exception:
//   - a missing or non-numeric value: the limit is ignored;
//   - negative wtime/btime/winc/binc: 0;
//   - depth, nodes, mate below 1: 1 (depth and nodes then end the search;
//     mate, as any mate search, runs until it finds one or is stopped);
//     movestogo below 1: ignored; movetime below 0: 0;
//   - values above the range: clamped (depth to MAX_DEPTH, times to MAX_MS, ...);
//   - unknown tokens: reported and skipped;
//   - searchmoves: each move is checked by `checkMove`; bad ones are reported
//     (the first few by name) and dropped.

import type { GoParams } from '../search/limits.js';
import { errorText } from '../util/errors.js';

/** Deepest `go depth` handed to the search. */
export const MAX_DEPTH = 100;
/** Largest time in milliseconds handed to the search (about 24 days). */
const MAX_MS = 2 ** 31 - 1;
/** Refused searchmoves reported one by one; the rest are counted. */
const MAX_SEARCHMOVES_NAMED = 5;
/** Deepest `go perft`. */
const MAX_PERFT_DEPTH = 20;

export interface ParsedGo {
  params: GoParams;
  /** Set for `go perft <n>`: run perft instead of a search. */
  perft: number | null;
  messages: string[];
}

type NumberKey = 'wtime' | 'btime' | 'winc' | 'binc' | 'movestogo' | 'depth' | 'nodes' | 'mate' | 'movetime';

const NUMBER_KEYS: readonly NumberKey[] = ['wtime', 'btime', 'winc', 'binc', 'movestogo', 'depth', 'nodes', 'mate', 'movetime'];
const KEYWORDS = new Set<string>([...NUMBER_KEYS, 'infinite', 'ponder', 'searchmoves', 'perft']);

function emptyGoParams(): GoParams {
  return { infinite: false, ponder: false, searchmoves: [] };
}

/** Smallest accepted value, the value used below it (null = drop the limit), and the largest. */
const RANGE: Record<NumberKey, { min: number; below: number | null; max: number }> = {
  wtime: { min: 0, below: 0, max: MAX_MS },
  btime: { min: 0, below: 0, max: MAX_MS },
  winc: { min: 0, below: 0, max: MAX_MS },
  binc: { min: 0, below: 0, max: MAX_MS },
  movestogo: { min: 1, below: null, max: 10000 },
  depth: { min: 1, below: 1, max: MAX_DEPTH },
  nodes: { min: 1, below: 1, max: Number.MAX_SAFE_INTEGER },
  mate: { min: 1, below: 1, max: MAX_DEPTH },
  movetime: { min: 0, below: 0, max: MAX_MS },
};

/**
 * Parses the tokens after `go`. checkMove(text) returns the move in canonical
 * UCI notation, or throws an Error whose message says why it is refused.
 */
export function parseGo(tokens: string[], checkMove: (text: string) => string): ParsedGo {
  const params = emptyGoParams();
  const messages: string[] = [];
  let perft: number | null = null;
  let i = 0;
  while (i < tokens.length) {
    const raw = tokens[i++];
    const token = raw.toLowerCase();
    if (token === 'infinite') {
      params.infinite = true;
    } else if (token === 'ponder') {
      params.ponder = true;
    } else if (token === 'searchmoves') {
      const first = i;
      let refused = 0;
      while (i < tokens.length && !KEYWORDS.has(tokens[i].toLowerCase())) {
        const text = tokens[i++];
        try {
          const move = checkMove(text.toLowerCase());
          if (!params.searchmoves.includes(move)) params.searchmoves.push(move);
        } catch (e) {
          if (++refused <= MAX_SEARCHMOVES_NAMED) messages.push(`searchmoves: ${errorText(e)}; ignored`);
        }
      }
      if (refused > MAX_SEARCHMOVES_NAMED) messages.push(`searchmoves: ${refused - MAX_SEARCHMOVES_NAMED} more refused moves ignored`);
      if (i > first && params.searchmoves.length === 0) messages.push('searchmoves: no legal move given; searching all moves');
    } else if (token === 'perft') {
      const text = tokens[i];
      if (text !== undefined && /^\d+$/.test(text)) {
        i++;
        const n = Number(text);
        if (n < 1 || n > MAX_PERFT_DEPTH) {
          perft = Math.min(MAX_PERFT_DEPTH, Math.max(1, n));
          messages.push(`perft depth ${text} is outside 1..${MAX_PERFT_DEPTH}; using ${perft}`);
        } else {
          perft = n;
        }
      } else {
        perft = 1;
        messages.push(`perft needs a depth (1..${MAX_PERFT_DEPTH}); using 1`);
      }
    } else if ((NUMBER_KEYS as readonly string[]).includes(token)) {
      const key = token as NumberKey;
      const text = tokens[i];
      // A value is a number, or anything that is not the next keyword.
      if (text === undefined || KEYWORDS.has(text.toLowerCase())) {
        messages.push(`go: ${key} needs a value; ignored`);
        continue;
      }
      i++;
      const n = Number(text);
      if (text.trim() === '' || !Number.isFinite(n)) {
        messages.push(`go: ${key} '${text}' is not a number; ignored`);
        continue;
      }
      const range = RANGE[key];
      const value = Math.floor(n);
      if (value < range.min) {
        if (range.below === null) {
          messages.push(`go: ${key} ${text} is below ${range.min}; ignored`);
          continue;
        }
        messages.push(`go: ${key} ${text} is below ${range.min}; using ${range.below}`);
        params[key] = range.below;
      } else if (value > range.max) {
        messages.push(`go: ${key} ${text} is above ${range.max}; using ${range.max}`);
        params[key] = range.max;
      } else {
        params[key] = value;
      }
    } else {
      messages.push(`go: unknown token '${raw}' ignored`);
    }
  }
  return { params, perft, messages };
}

/**
 * Whether a `go` with these tokens ends by itself: perft, or a search with
 * a depth, node, mate, time or clock limit and neither infinite nor ponder.
 */
export function goEndsByItself(tokens: string[]): boolean {
  const { params, perft } = parseGo(tokens, (text) => text);
  if (perft !== null) return true;
  if (params.infinite || params.ponder) return false;
  return [params.depth, params.nodes, params.mate, params.movetime, params.wtime, params.btime].some((v) => v !== undefined);
}
