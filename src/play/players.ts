// Who plays a game of `kestrel play`, in words: the players' names on the
// screen and in the PGN, and the sentence that introduces the game.

import { BLACK, WHITE } from '../board/types.js';
import { engineVersion } from '../engine/version.js';
import { formatClock, timeControlTag } from './clock.js';
import type { GameSettings, PlayerKind } from './events.js';
import { Game } from './game.js';
import { LEVELS_DRIVER } from '../search/driver.js';
import { FULL_SKILL } from '../search/strength.js';
import { type LevelChoice, describeLevel, engineName, levelLimit } from './levels.js';

type Players = readonly [PlayerKind, PlayerKind];

/** "You", "Kestrel", "White" (two people), "Kestrel level 7 (White)" (two engines). */
export function playerName(players: Players, level: LevelChoice, side: number): string {
  if (players[side] === 'engine') return players[side ^ 1] === 'engine' ? `${engineName(level)} (${Game.colorName(side)})` : 'Kestrel';
  return players[side ^ 1] === 'human' ? Game.colorName(side) : 'You';
}

/** Who plays whom, at which level and clock, and the seed, in a sentence. */
export function introduction(settings: GameSettings, level: LevelChoice): string {
  const [white, black] = settings.players;
  const strength = describeLevel(level);
  let who: string;
  if (white === 'human' && black === 'human') who = 'two players at one keyboard';
  else if (white === 'engine' && black === 'engine') who = `Kestrel against itself at ${strength}`;
  else who = `you play ${white === 'human' ? 'White' : 'Black'}; Kestrel plays at ${strength}`;
  const time = settings.time;
  const clock = time === null ? '' : `, ${formatClock(time.initialMs)} + ${time.incrementMs / 1000} s a move`;
  const note = driverNote(settings, level);
  return `Kestrel ${engineVersion()}: ${who}${clock}. Seed ${settings.seed}.${note === '' ? '' : ` ${note}`}`;
}

/** What the search driver asked for does at a level: '' at full strength or with the levels' driver (driver.ts). */
export function driverNote(settings: GameSettings, level: LevelChoice): string {
  const driver = settings.driver ?? 'pvs';
  if (driver === LEVELS_DRIVER || levelLimit(level, 0) === null) return '';
  return `The levels search with ${LEVELS_DRIVER}, with which they were measured: the ${driver} driver plays at full strength (level ${FULL_SKILL}).`;
}

/** The PGN's tags for the players and the time control (the game adds the date, result and start). */
export function pgnTags(settings: GameSettings, level: LevelChoice): Array<[string, string]> {
  const name = (side: number): string => (settings.players[side] === 'engine' ? engineName(level) : 'Human');
  return [
    ['Event', 'Kestrel play'],
    ['Site', '?'],
    ['Round', '-'],
    ['White', name(WHITE)],
    ['Black', name(BLACK)],
    ['TimeControl', settings.time === null ? '-' : timeControlTag(settings.time)],
  ];
}
