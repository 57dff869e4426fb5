// A level as a person gives it: a Skill Level (0-20) or an Elo (700-2250),
// and what it means in words.

import { FULL_SKILL, FULL_STRENGTH_ELO, MIN_ELO, STRENGTH_LEVELS, limitForElo, limitForSkill } from '../search/strength.js';
import type { StrengthLimit } from '../search/limits.js';

export type LevelChoice = { kind: 'skill'; skill: number } | { kind: 'elo'; elo: number };

/** 0..20 is a Skill Level, MIN_ELO..FULL_STRENGTH_ELO an Elo; anything else null. */
export function parseLevel(text: string): LevelChoice | null {
  if (!/^\d+$/.test(text.trim())) return null;
  const n = Number(text);
  if (n <= FULL_SKILL) return { kind: 'skill', skill: n };
  if (n >= MIN_ELO && n <= FULL_STRENGTH_ELO) return { kind: 'elo', elo: n };
  return null;
}

export const LEVEL_HELP = `a Skill Level from 0 to ${FULL_SKILL} (${FULL_SKILL}: full strength) or an Elo from ${MIN_ELO} to ${FULL_STRENGTH_ELO}`;

/** The search limit of a level (null: full strength), its choices seeded with `seed`. */
export function levelLimit(choice: LevelChoice, seed: number): StrengthLimit | null {
  return choice.kind === 'skill' ? limitForSkill(choice.skill, seed) : limitForElo(choice.elo, seed);
}

/** The level in words, with the Elo it stands for: "level 7 (about 1280 Elo)". */
export function describeLevel(choice: LevelChoice): string {
  if (choice.kind === 'skill') {
    if (choice.skill >= FULL_SKILL) return `level ${FULL_SKILL}, full strength (about ${FULL_STRENGTH_ELO} Elo)`;
    return `level ${choice.skill} (about ${STRENGTH_LEVELS[choice.skill].elo} Elo)`;
  }
  if (choice.elo >= FULL_STRENGTH_ELO) return `Elo ${choice.elo}: full strength (about ${FULL_STRENGTH_ELO} Elo)`;
  const rows = STRENGTH_LEVELS;
  if (choice.elo <= rows[0].elo) return `Elo ${choice.elo} (level 0)`;
  const at = rows.findIndex((r) => r.elo === choice.elo);
  if (at >= 0) return `Elo ${choice.elo} (level ${at})`;
  const above = rows.findIndex((r) => r.elo > choice.elo);
  if (above < 0) return `Elo ${choice.elo} (level ${rows.length - 1})`;
  return `Elo ${choice.elo} (between levels ${above - 1} and ${above})`;
}

/** A short name for the PGN and the screen: "Kestrel level 7" or "Kestrel 1500". */
export function engineName(choice: LevelChoice): string {
  return choice.kind === 'skill' ? `Kestrel level ${choice.skill}` : `Kestrel ${choice.elo}`;
}
