// Playing strength for people: Skill Level 0-20 and UCI_Elo, as a weaker
// player rather than a random one. A limited search (a node budget that grows
// with the level) looks at the few best moves (MultiPV), and one of them is
// chosen with probabilities that fall with its score's distance from the best:
// weight exp(-loss / temperature), moves losing more than `margin` left out.
// Low levels see less and wander further; none hangs its queen to a capture
// the search sees. The choice is reproducible: it depends only on the seed.
//
// The levels search with the hand-crafted evaluation (the network, stronger
// at the same node count, would void their calibration). The full-strength
// search is untouched: with no StrengthLimit nothing here runs. Every number
// lives in STRENGTH_LEVELS; to recalibrate, measure each
// level's Elo (docs/levels.md) and write it in the `elo` column, which is all
// that UCI_Elo reads (it interpolates between the rows).

import { withHandCraftedEval } from '../eval/index.js';
import { mulberry32, unitInterval } from '../util/random.js';
import { type GoParams, NO_REPORT, type SearchLine, type SearchReport, type StrengthLimit } from './limits.js';
import { DECISIVE_BOUND } from './score.js';
import type { SearchResult, Searcher } from './search.js';
import type { SearchRequest } from './request.js';

export interface LevelRow {
  /** Skill Level (the row's index). */
  skill: number;
  /** The Elo the row plays at, on Stockfish 15.1's UCI_Elo scale at 10+0.1 (docs/levels.md). */
  elo: number;
  /** No new iteration starts after this many nodes; the hard limit is HARD_NODES_FACTOR times this. */
  nodes: number;
  /** How many of the best moves are candidates. */
  multiPv: number;
  /** Centipawns: a move this much worse than the best is chosen e^-1 times as often. */
  temperature: number;
  /** Centipawns: moves worse than the best by more than this are never chosen. */
  margin: number;
}

/**
 * The levels, weakest first. Skill Level n is row n; Skill Level 20 is full
 * strength (no row). The elo column places the rows on Stockfish 15.1's
 * UCI_Elo scale at 10+0.1, measured by games (docs/levels.md); the other
 * columns grow (nodes) or shrink (temperature, margin) geometrically.
 */
export const STRENGTH_LEVELS: readonly LevelRow[] = [
  { skill: 0, elo: 700, nodes: 50, multiPv: 5, temperature: 180, margin: 400 },
  { skill: 1, elo: 730, nodes: 75, multiPv: 5, temperature: 150, margin: 340 },
  { skill: 2, elo: 765, nodes: 115, multiPv: 5, temperature: 125, margin: 290 },
  { skill: 3, elo: 795, nodes: 175, multiPv: 5, temperature: 100, margin: 250 },
  { skill: 4, elo: 880, nodes: 270, multiPv: 5, temperature: 85, margin: 215 },
  { skill: 5, elo: 1015, nodes: 400, multiPv: 4, temperature: 70, margin: 180 },
  { skill: 6, elo: 1145, nodes: 600, multiPv: 4, temperature: 58, margin: 155 },
  { skill: 7, elo: 1280, nodes: 950, multiPv: 4, temperature: 48, margin: 130 },
  { skill: 8, elo: 1395, nodes: 1400, multiPv: 4, temperature: 40, margin: 115 },
  { skill: 9, elo: 1490, nodes: 2200, multiPv: 4, temperature: 33, margin: 95 },
  { skill: 10, elo: 1580, nodes: 3300, multiPv: 4, temperature: 27, margin: 85 },
  { skill: 11, elo: 1670, nodes: 5000, multiPv: 4, temperature: 22, margin: 70 },
  { skill: 12, elo: 1760, nodes: 7600, multiPv: 4, temperature: 19, margin: 60 },
  { skill: 13, elo: 1830, nodes: 11500, multiPv: 4, temperature: 15, margin: 52 },
  { skill: 14, elo: 1875, nodes: 17500, multiPv: 4, temperature: 13, margin: 44 },
  { skill: 15, elo: 1915, nodes: 27000, multiPv: 3, temperature: 11, margin: 38 },
  { skill: 16, elo: 1960, nodes: 40000, multiPv: 3, temperature: 9, margin: 32 },
  { skill: 17, elo: 2005, nodes: 62000, multiPv: 3, temperature: 7, margin: 27 },
  { skill: 18, elo: 2050, nodes: 94000, multiPv: 2, temperature: 6, margin: 23 },
  { skill: 19, elo: 2090, nodes: 140000, multiPv: 2, temperature: 5, margin: 20 },
];

/** Skill Level of full strength (no limit), as in Stockfish. */
export const FULL_SKILL = STRENGTH_LEVELS.length;
/** Full strength on the same scale (at 10+0.1; docs/levels.md); UCI_Elo at or above it plays at full strength. */
export const FULL_STRENGTH_ELO = 2250;
/** UCI_Elo's range: from beginners (MIN_ELO) to Kestrel's full strength (FULL_STRENGTH_ELO). */
export const MIN_ELO = 700;
/** The hard node limit, as a multiple of a level's budget: the first iteration always completes, a runaway one is cut. */
export const HARD_NODES_FACTOR = 4;
/** The hard limit is never below this: enough for a depth-1 search of every line in any position. */
const MIN_HARD_NODES = 4000;

/** Skill Level `skill` (0..20, clamped); null at full strength. */
export function limitForSkill(skill: number, seed = 0): StrengthLimit | null {
  const s = Math.max(0, Math.min(FULL_SKILL, Math.round(skill)));
  if (s >= FULL_SKILL) return null;
  const row = STRENGTH_LEVELS[s];
  return {
    elo: row.elo,
    label: `level ${s}`,
    nodes: row.nodes,
    multiPv: row.multiPv,
    temperature: row.temperature,
    margin: row.margin,
    seed,
  };
}

/**
 * UCI_Elo `elo` (clamped to MIN_ELO..FULL_STRENGTH_ELO): between two rows, the node
 * budget is interpolated geometrically and the temperature and margin
 * linearly; below the first row, the first row; null at full strength.
 */
export function limitForElo(elo: number, seed = 0): StrengthLimit | null {
  const e = Math.max(MIN_ELO, Math.min(FULL_STRENGTH_ELO, Math.round(elo)));
  if (e >= FULL_STRENGTH_ELO) return null;
  const rows = STRENGTH_LEVELS;
  let i = 0;
  while (i + 1 < rows.length && rows[i + 1].elo <= e) i++;
  const a = rows[i];
  const b = rows[Math.min(i + 1, rows.length - 1)];
  const t = b.elo > a.elo ? Math.max(0, Math.min(1, (e - a.elo) / (b.elo - a.elo))) : 0;
  const lerp = (x: number, y: number): number => x + (y - x) * t;
  return {
    elo: e,
    label: `Elo ${e}`,
    nodes: Math.round(Math.exp(lerp(Math.log(a.nodes), Math.log(b.nodes)))),
    multiPv: a.multiPv,
    temperature: Math.round(lerp(a.temperature, b.temperature)),
    margin: Math.round(lerp(a.margin, b.margin)),
    seed,
  };
}

/** The UCI options' rule (as Stockfish's): UCI_LimitStrength with UCI_Elo wins over Skill Level. */
export function limitFromOptions(limitStrength: boolean, elo: number, skill: number, seed = 0): StrengthLimit | null {
  return limitStrength ? limitForElo(elo, seed) : limitForSkill(skill, seed);
}

/** A candidate move: its score (side to move's view) and its line. */
export interface Candidate {
  score: number;
  pv: readonly number[];
}

/**
 * The index of the candidate to play (candidates sorted best first): a
 * forced mate found is always played; otherwise each move within `margin` of
 * the best is drawn with weight exp(-(best - score) / temperature).
 */
export function chooseCandidate(
  candidates: readonly Candidate[],
  limit: Pick<StrengthLimit, 'temperature' | 'margin'>,
  random: () => number,
): number {
  if (candidates.length <= 1) return 0;
  const best = candidates[0].score;
  if (best >= DECISIVE_BOUND) return 0;
  const weights: number[] = [];
  let total = 0;
  for (const c of candidates) {
    const loss = best - c.score;
    const w = loss > limit.margin || c.pv.length === 0 ? 0 : Math.exp(-loss / Math.max(1, limit.temperature));
    weights.push(w);
    total += w;
  }
  let r = random() * total;
  for (let i = 0; i < weights.length; i++) {
    r -= weights[i];
    if (r < 0 && weights[i] > 0) return i;
  }
  return 0;
}

/**
 * A search at a limited strength: the level's node budget (a tighter `go
 * nodes` or clock still applies), its MultiPV, and a chosen move among the
 * last complete iteration's lines. Reports pass through, lines beyond the
 * caller's MultiPV left out; when the move chosen is not the best, a last
 * line with the move chosen (multipv 1) is reported, so that the final line
 * agrees with the move played.
 */
export function limitedSearch(searcher: Searcher, request: SearchRequest, limit: StrengthLimit): SearchResult {
  const { params, options, report = NO_REPORT } = request;
  const hard = Math.max(MIN_HARD_NODES, limit.nodes * HARD_NODES_FACTOR);
  const limited: GoParams = {
    ...params,
    nodes: params.nodes !== undefined && params.nodes > 0 ? Math.min(params.nodes, hard) : hard,
    softNodes: params.softNodes !== undefined ? Math.min(params.softNodes, limit.nodes) : limit.nodes,
  };
  const multiPv = Math.max(options.multiPv, limit.multiPv);
  // The lines of the last complete iteration: a batch starts at multipv 1 (the
  // search reports an iteration's lines in order); a batch counts once it is
  // as long as the longest seen (fewer legal moves than lines: shorter ones).
  let lines: SearchLine[] = [];
  let batch: SearchLine[] = [];
  let longest = 0;
  const relay: SearchReport = (event) => {
    if (event.type === 'line' && event.bound === 'exact') {
      if (event.multipv === 1) batch = [];
      batch.push(event);
      if (batch.length >= longest) {
        longest = batch.length;
        lines = batch;
      }
    }
    if (event.type !== 'line' || event.multipv <= options.multiPv) report(event);
  };
  // The levels are calibrated with the hand-crafted evaluation, and play with it whatever UseNNUE says.
  const result = withHandCraftedEval(() => searcher.go({ ...request, params: limited, options: { ...options, multiPv }, report: relay }));
  const complete = lines.filter((line) => line.pv.length > 0);
  if (complete.length === 0 || result.move === 0) return result;
  const index = chooseCandidate(complete, limit, unitInterval(mulberry32(limit.seed)));
  const chosen = complete[index];
  // The best line stands for the search's own move (a deeper, unfinished iteration may have improved on it).
  if (index === 0 || chosen.pv[0] === result.move) return result;
  report({ ...chosen, multipv: 1 });
  return { move: chosen.pv[0], ponder: chosen.pv.length > 1 ? chosen.pv[1] : 0, score: chosen.score };
}
