// Lichess's model of a game, so that Kestrel's analysis reads as lichess's:
//
//   winning chances  wc(cp) = 2 / (1 + exp(-0.00368208 * cp)) - 1   (-1..+1)
//   win percentage   win%(cp) = 50 + 50 * wc(clamp(cp, -1000, 1000)) (0..100)
//   a mate counts as +-1000 centipawns.
//
// A move is an inaccuracy (?!), a mistake (?) or a blunder (??) when it lowers
// the mover's winning chances by 0.1, 0.2 or 0.3 (on the -1..+1 scale: 5, 10
// and 15 points of win percentage); moves into or out of a forced mate are
// judged by the mate rules. A move's accuracy is
// 103.1668 * exp(-0.04354 * (win% lost)) - 3.1669 + 1, within 0..100; a
// player's accuracy over a game is the mean of a volatility-weighted mean and
// a harmonic mean of their moves' accuracies. (lila: modules/tree WinPercent
// and Advice, modules/analyse AccuracyPercent; docs/analyse.md.)

/** An evaluation from white's view: centipawns, moves to mate (negative: black mates), or a mate on the board. */
export type WhiteEval = { cp: number } | { mate: number } | { mated: 'white' | 'black' };

export type Judgement = 'inaccuracy' | 'mistake' | 'blunder';

export const GLYPHS: Record<Judgement, string> = { inaccuracy: '?!', mistake: '?', blunder: '??' };

/** Lichess's logistic constant (lila pull request 11148). */
const MULTIPLIER = -0.00368208;
/** Centipawns beyond this count as this (and a mate as this). */
const CEILING = 1000;
/** Winning chances lost, -1..+1 scale, for each judgement (lila's CpAdvice). */
const JUDGEMENTS: ReadonlyArray<readonly [number, Judgement]> = [
  [0.3, 'blunder'],
  [0.2, 'mistake'],
  [0.1, 'inaccuracy'],
];
// The move accuracy curve (lila's AccuracyPercent, fitted by its authors), plus its bonus for imperfect analysis.
const ACCURACY_A = 103.1668100711649;
const ACCURACY_K = 0.04354415386753951;
const ACCURACY_B = -3.166924740191411;
const ACCURACY_BONUS = 1;
/** Volatility weights are standard deviations of win% clamped to this range. */
const MIN_WEIGHT = 0.5;
const MAX_WEIGHT = 12;

/** -1..+1, white's view. */
export function winningChances(cp: number): number {
  return Math.max(-1, Math.min(1, 2 / (1 + Math.exp(MULTIPLIER * cp)) - 1));
}

/** Centipawns for the win percentage: a mate (or mate on the board) as +-CEILING. */
function ceiledCp(e: WhiteEval): number {
  if ('cp' in e) return Math.max(-CEILING, Math.min(CEILING, e.cp));
  if ('mate' in e) return e.mate > 0 ? CEILING : -CEILING;
  return e.mated === 'black' ? CEILING : -CEILING;
}

/** 0..100, white's view. */
export function winPercent(e: WhiteEval): number {
  return 50 + 50 * winningChances(ceiledCp(e));
}

/** From the mover's view: mate in n for the mover is positive; a mate on the board is 0. */
function moverMate(e: WhiteEval, white: boolean): number | null {
  if ('mate' in e) return white ? e.mate : 0 - e.mate;
  return null;
}

function moverCp(e: WhiteEval, white: boolean): number {
  return 'cp' in e ? (white ? e.cp : 0 - e.cp) : 0;
}

/**
 * How the move from `before` to `after` (evaluations of the positions before
 * and after it, white's view) is judged, `white` telling who moved; null for
 * a good enough move.
 */
export function judgeMove(before: WhiteEval, after: WhiteEval, white: boolean): Judgement | null {
  if ('cp' in before && 'cp' in after) {
    const lost = (winningChances(before.cp) - winningChances(after.cp)) * (white ? 1 : -1);
    for (const [threshold, judgement] of JUDGEMENTS) if (lost >= threshold) return judgement;
    return null;
  }
  const prev = moverMate(before, white);
  const next = moverMate(after, white);
  // Walking into a forced mate, worse the better the position was.
  if (prev === null && next !== null && next < 0) {
    const cp = moverCp(before, white);
    return cp < -999 ? 'inaccuracy' : cp < -700 ? 'mistake' : 'blunder';
  }
  // Letting a forced mate go, worse the less is left.
  if (prev !== null && prev > 0 && (next === null || next < 0)) {
    if ('mated' in after) return null; // mated: the mate was given
    const cp = next === null ? moverCp(after, white) : 0;
    return cp > 999 ? 'inaccuracy' : cp > 700 ? 'mistake' : 'blunder';
  }
  return null;
}

/** A move's accuracy, 0..100, from the mover's win percentages before and after it. */
export function moveAccuracy(winBefore: number, winAfter: number): number {
  if (winAfter >= winBefore) return 100;
  const raw = ACCURACY_A * Math.exp(-ACCURACY_K * (winBefore - winAfter)) + ACCURACY_B + ACCURACY_BONUS;
  return Math.max(0, Math.min(100, raw));
}

function mean(xs: readonly number[]): number {
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}

/** Population standard deviation. */
function standardDeviation(xs: readonly number[]): number {
  const m = mean(xs);
  return Math.sqrt(xs.reduce((a, x) => a + (x - m) * (x - m), 0) / xs.length);
}

/**
 * Each player's accuracy over a game (null for a player with no move).
 * evals: white's-view evaluations of every position, the first before the
 * first move; whiteFirst: white made the first move.
 */
export function gameAccuracy(evals: readonly WhiteEval[], whiteFirst: boolean): { white: number | null; black: number | null } {
  const wins = evals.map(winPercent);
  const moves = wins.length - 1;
  if (moves < 1) return { white: null, black: null };
  // One window of win percentages per move: the first few repeat the opening window.
  const size = Math.max(2, Math.min(8, Math.floor(moves / 10)));
  const windows: number[][] = [];
  for (let i = 0; i < Math.min(size, wins.length) - 2; i++) windows.push(wins.slice(0, size));
  if (wins.length <= size) windows.push(wins.slice());
  else for (let i = 0; i + size <= wins.length; i++) windows.push(wins.slice(i, i + size));
  const weights = windows.map((w) => Math.max(MIN_WEIGHT, Math.min(MAX_WEIGHT, standardDeviation(w))));
  const per: { white: Array<[number, number]>; black: Array<[number, number]> } = { white: [], black: [] };
  for (let i = 0; i < moves; i++) {
    const white = (i % 2 === 0) === whiteFirst;
    const before = white ? wins[i] : 100 - wins[i];
    const after = white ? wins[i + 1] : 100 - wins[i + 1];
    (white ? per.white : per.black).push([moveAccuracy(before, after), weights[i] ?? MIN_WEIGHT]);
  }
  const combine = (xs: Array<[number, number]>): number | null => {
    if (xs.length === 0) return null;
    const totalWeight = xs.reduce((a, [, w]) => a + w, 0);
    const weighted = xs.reduce((a, [v, w]) => a + v * w, 0) / totalWeight;
    const harmonic = xs.length / xs.reduce((a, [v]) => a + 1 / Math.max(1, v), 0);
    return (weighted + harmonic) / 2;
  };
  return { white: combine(per.white), black: combine(per.black) };
}
