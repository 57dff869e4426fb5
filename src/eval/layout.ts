// The layout of the evaluation's parameter vector: every weight of the
// evaluation is one entry (a midgame and an endgame value) of one vector, and
// each named term below owns a fixed range of it. The evaluator reads the
// live values from MG/EG in src/eval/live-weights.ts at these offsets; the tuner
// changes the whole vector at once; src/eval/weights.ts holds the values.

export interface Term {
  /** Name used in weights.ts and in the `eval` breakdown. */
  readonly name: string;
  readonly offset: number;
  readonly size: number;
  /** What the term rewards (shown in weights.ts). */
  readonly doc: string;
}

const terms: Term[] = [];
let next = 0;

function term(name: string, size: number, doc: string): number {
  const offset = next;
  terms.push({ name, offset, size, doc });
  next += size;
  return offset;
}

// --- Material and piece-square tables (kept incrementally by Position) ------
/** Material by piece type: P N B R Q (index type - 1). */
export const MATERIAL = term('material', 5, 'material value of P N B R Q');
/** Piece-square tables per piece type P..K, 64 squares each, from White's side (a1 = 0). */
export const PST_PAWN = term('pstPawn', 64, 'pawn placement (a1..h8, White side)');
export const PST_KNIGHT = term('pstKnight', 64, 'knight placement');
/** @public (read by no module yet; named with the other tables) */
export const PST_BISHOP = term('pstBishop', 64, 'bishop placement');
export const PST_ROOK = term('pstRook', 64, 'rook placement');
/** @public (read by no module yet; named with the other tables) */
export const PST_QUEEN = term('pstQueen', 64, 'queen placement');
export const PST_KING = term('pstKing', 64, 'king placement');

// --- Mobility: safe squares a piece attacks, one entry per count ------------
export const MOB_KNIGHT = term('mobilityKnight', 9, 'knight mobility by number of safe squares (0..8)');
export const MOB_BISHOP = term('mobilityBishop', 14, 'bishop mobility (0..13)');
export const MOB_ROOK = term('mobilityRook', 15, 'rook mobility (0..14)');
export const MOB_QUEEN = term('mobilityQueen', 28, 'queen mobility (0..27)');

// --- Pawn structure (indexed by the pawn's rank from its own side, 0..7) ----
export const PASSED = term('passed', 8, 'passed pawn by relative rank');
export const PASSED_FREE = term('passedFreePath', 8, 'passed pawn whose path to promotion is empty');
export const PASSED_SAFE = term('passedSafeStop', 8, 'passed pawn whose stop square the enemy does not attack');
export const PASSED_KING_OWN = term('passedOwnKingDist', 8, 'per square of own king distance to the stop square');
export const PASSED_KING_THEIR = term('passedTheirKingDist', 8, 'per square of enemy king distance to the stop square');
export const ISOLATED = term('isolated', 1, 'pawn with no own pawns on adjacent files');
export const DOUBLED = term('doubled', 1, 'pawn with an own pawn ahead on its file');
export const BACKWARD = term('backward', 1, 'pawn that no neighbour can support and whose stop square an enemy pawn attacks');
export const PHALANX = term('phalanx', 8, 'pawn with an own pawn beside it, by relative rank');
export const SUPPORTED = term('supported', 8, 'pawn defended by an own pawn, by relative rank');

// --- King safety --------------------------------------------------------------
/** Per king-zone square attacked, by attacker type N B R Q (index type - 2). */
export const KING_ATTACK = term('kingAttack', 4, 'per enemy king-zone square attacked by N B R Q');
export const KING_ATTACKERS = term('kingAttackers', 8, 'by number of pieces attacking the enemy king zone (0..7+)');
export const SHIELD = term('pawnShield', 8, 'own pawn in front of the king per file, by distance (0 = none)');
export const STORM = term('pawnStorm', 8, 'enemy pawn in front of the king per file, by distance (0 = none)');

// --- Pieces -------------------------------------------------------------------
export const BISHOP_PAIR = term('bishopPair', 1, 'two or more bishops');
export const ROOK_OPEN = term('rookOpenFile', 1, 'rook on a file without pawns');
export const ROOK_SEMI_OPEN = term('rookSemiOpenFile', 1, 'rook on a file with enemy pawns only');
export const ROOK_SEVENTH = term('rookSeventh', 1, 'rook on the 7th rank with the enemy king or pawns on 8th/7th');
export const PAWN_THREAT = term('pawnThreat', 1, 'per enemy piece (not pawn) attacked by an own pawn');
export const TEMPO = term('tempo', 1, 'side to move');

/** Number of (midgame, endgame) parameter pairs. */
export const NUM_PARAMS = next;
/** Every term in vector order. */
export const TERMS: readonly Term[] = terms;

/** Offset of the piece-square table of piece type 1..6. */
export function pstOffset(type: number): number {
  return PST_PAWN + (type - 1) * 64;
}

/** Values of every term as [midgame, endgame] pairs, keyed by term name. */
export type WeightSet = Readonly<Record<string, ReadonlyArray<readonly [number, number]>>>;

/** Packs a WeightSet into mg and eg vectors; throws when a term is missing or has the wrong size. */
export function packWeights(set: WeightSet, mg: Int32Array, eg: Int32Array): void {
  for (const t of TERMS) {
    const values = set[t.name];
    if (values === undefined) throw new Error(`weights: term '${t.name}' is missing`);
    if (values.length !== t.size) throw new Error(`weights: term '${t.name}' has ${values.length} values, expected ${t.size}`);
    for (let i = 0; i < t.size; i++) {
      mg[t.offset + i] = values[i][0];
      eg[t.offset + i] = values[i][1];
    }
  }
}

/** The term that owns parameter index i. */
export function termOf(i: number): Term {
  for (const t of TERMS) if (i >= t.offset && i < t.offset + t.size) return t;
  throw new RangeError(`no term owns parameter ${i}`);
}
