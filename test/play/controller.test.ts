// The game controller of `kestrel play` on its own, with no terminal: its
// commands and the events it reports. A scripted engine stands in for the
// search (its answers chosen by the test, and a search that runs until
// stopped), and one game uses the real engine host with a small level.

import { afterEach, describe, expect, it } from 'vitest';
import { START_FEN } from '../../src/board/position.js';
import type { SearchHandle, SearchOutcome } from '../../src/engine/host-search.js';
import type { EngineLine } from '../../src/engine/search-lines.js';
import type { PositionSpec } from '../../src/engine/messages.js';
import {
  type ControllerOptions,
  GameController,
  type GameSettings,
  type PlayEngine,
  type PlayEvents,
  type Waiting,
} from '../../src/play/controller.js';

/** White: Kf6, Ra1; Black: Kh8. 1. Kg6 Kg8 (forced) 2. Ra8#. */
const MATE_IN_TWO = '7k/8/5K2/8/8/8/8/R7 w - - 0 1';

/** A line as the search reports it: score in centipawns from the side to move's view. */
function line(pv: string[], score: number, depth = 7): EngineLine {
  return { depth, seldepth: depth, multipv: 1, score, bound: 'exact', nodes: 1000, timeMs: 5, hashfull: null, tbhits: null, pv, pvSan: [] };
}

interface Request {
  position: PositionSpec;
  params: Record<string, unknown>;
  options: Record<string, unknown>;
  stopped: boolean;
}

/**
 * An engine whose answers the test gives: `answer` returns the outcome for a
 * request (its line reported first), or null for a search that runs until
 * stopped and then answers `onStop`.
 */
class ScriptedEngine implements PlayEngine {
  readonly requests: Request[] = [];
  cleared = 0;
  closed = false;
  answer: (r: Request) => SearchOutcome | null = () => null;
  onStop: SearchOutcome = { bestMove: '0000', ponderMove: null, lines: [], notes: [] };

  warm(): void {}

  search(
    position: PositionSpec,
    params: Parameters<PlayEngine['search']>[1],
    options: Parameters<PlayEngine['search']>[2] = {},
    onLine?: (line: EngineLine) => void,
  ): SearchHandle {
    const request: Request = { position, params: { ...params }, options: { ...options }, stopped: false };
    this.requests.push(request);
    let finish: (outcome: SearchOutcome) => void = () => {};
    const done = new Promise<SearchOutcome>((resolve) => {
      finish = resolve;
    });
    const outcome = this.answer(request);
    if (outcome !== null)
      setTimeout(() => {
        for (const l of outcome.lines) onLine?.(l);
        finish(outcome);
      }, 0);
    return {
      done,
      stop: () => {
        request.stopped = true;
        setTimeout(() => finish(outcome ?? this.onStop), 0);
      },
    };
  }

  clear(): Promise<void> {
    this.cleared++;
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.closed = true;
    return Promise.resolve();
  }
}

function outcome(bestMove: string, lines: EngineLine[] = []): SearchOutcome {
  return { bestMove, ponderMove: null, lines, notes: [] };
}

const controllers: GameController[] = [];
afterEach(() => {
  for (const c of controllers) c.close();
  controllers.length = 0;
});

/** A controller with the test's settings (no book, no clocks, you White at level 5) and its events, in order. */
function make(settings: Partial<GameSettings>, options: ControllerOptions = {}) {
  const engine = options.engine instanceof ScriptedEngine ? options.engine : new ScriptedEngine();
  const controller = new GameController(
    { fen: START_FEN, players: ['human', 'engine'], time: null, level: { kind: 'skill', skill: 5 }, seed: 1, book: false, ...settings },
    { engine, ...options },
  );
  controllers.push(controller);
  const notes: string[] = [];
  const messages: string[] = [];
  const turns: Waiting[] = [];
  controller.subscribe({
    changed: (change) => notes.push(...change.notes),
    message: (lines) => messages.push(...lines),
    turn: (waiting) => turns.push(waiting),
  });
  return { controller, engine, notes, messages, turns };
}

/** Resolves at the next event `name` that passes `test`. */
function next<K extends keyof PlayEvents>(
  controller: GameController,
  name: K,
  test: (...args: Parameters<PlayEvents[K]>) => boolean = () => true,
): Promise<Parameters<PlayEvents[K]>> {
  return new Promise((resolve) => {
    const off = controller.subscribe({
      [name]: (...args: Parameters<PlayEvents[K]>) => {
        if (!test(...args)) return;
        off();
        resolve(args);
      },
    });
  });
}

/** Resolves when a person is to move or the game is over. */
const personOrOver = (c: GameController) => next(c, 'turn', (w) => w !== 'engine');

describe('the game controller', () => {
  it('starts with the board and a person to move; a move gets the engine’s reply, with its evaluation', async () => {
    const { controller, engine, notes, turns } = make({});
    engine.answer = () => outcome('e7e5', [line(['e7e5', 'g1f3'], 20)]);
    const changed: string[][] = [];
    controller.subscribe({ changed: (c) => changed.push(c.notes) });
    controller.start();
    expect(changed).toEqual([[]]);
    expect(turns).toEqual(['person']);
    const thought = next(controller, 'thought');
    const replied = personOrOver(controller);
    controller.move('e4');
    expect(controller.game.moves.map((m) => m.san)).toEqual(['e4']);
    const [state] = await thought;
    expect(state.purpose).toBe('move');
    expect(state.text).toBe('Kestrel thinks: depth 7  -0.20  1... e5 2. Nf3');
    await replied;
    expect(engine.requests).toHaveLength(1);
    expect(engine.requests[0].position.moves).toEqual(['e2e4']);
    expect(engine.requests[0].options.strength).toBeDefined();
    expect(controller.game.moves.map((m) => m.san)).toEqual(['e4', 'e5']);
    expect(controller.game.moves[1].eval).toEqual({ cp: -20 });
    expect(notes).toEqual(['Kestrel plays 1... e5 (depth 7, -0.20)']);
    expect(turns).toEqual(['person', 'engine', 'person']);
    expect(controller.thinking).toBeNull();
  });

  it('says why a move cannot be played, and whose move it is', () => {
    const { controller, messages } = make({ fen: MATE_IN_TWO });
    controller.start();
    controller.move('Kg7');
    controller.move('hello');
    expect(messages[0]).toMatch(/^Kg7 is not legal: your king would be in check on g7\. Try: /);
    expect(messages[1]).toMatch(/^'hello' is not a move/);
    expect(controller.game.moves).toHaveLength(0);
  });

  it('undo takes back the person’s move and the engine’s reply', async () => {
    const { controller, engine, notes, messages } = make({});
    engine.answer = () => outcome('e7e5', [line(['e7e5'], 15)]);
    controller.start();
    controller.undo();
    expect(messages).toEqual(['Nothing to take back.']);
    const replied = personOrOver(controller);
    controller.move('e4');
    await replied;
    controller.undo();
    expect(controller.game.moves).toHaveLength(0);
    expect(controller.game.pos.fen()).toBe(START_FEN);
    expect(notes.at(-1)).toBe('Took back e4 e5.');
  });

  it('declines a draw before move 30 without a search, and weighs one later', async () => {
    const early = make({});
    early.controller.start();
    await early.controller.offerDraw();
    expect(early.messages).toEqual(['Kestrel declines: it is early in the game (it considers draws from move 30).']);
    expect(early.engine.requests).toHaveLength(0);
    expect(early.controller.game.end).toBeNull();

    // The search is from the person's side: -5.00 for White is +5.00 for Kestrel, which declines.
    const winning = make({ fen: '4k3/8/8/8/8/8/q7/4K3 w - - 0 40' });
    winning.engine.answer = () => outcome('e1f1', [line(['e1f1'], -500)]);
    winning.controller.start();
    await winning.controller.offerDraw();
    expect(winning.engine.requests[0].params.nodes).toBe(50_000);
    expect(winning.messages).toEqual(['Kestrel declines the draw (it sees -5.00).']);
    expect(winning.controller.game.end).toBeNull();

    const level = make({ fen: '4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 40' });
    level.engine.answer = () => outcome('e1d2', [line(['e1d2'], 10)]);
    level.controller.start();
    const over = personOrOver(level.controller);
    await level.controller.offerDraw();
    expect(await over).toEqual(['over']);
    expect(level.controller.game.end).toMatchObject({ result: '1/2-1/2', text: 'Draw agreed.' });
    expect(level.notes).toEqual(['Draw agreed. (1/2-1/2)']);
  });

  it('resign ends the game; then moves, resign and draw are refused', () => {
    const { controller, notes, messages, turns } = make({ players: ['engine', 'human'], fen: MATE_IN_TWO.replace(' w ', ' b ') });
    controller.start();
    controller.resign();
    expect(controller.game.end).toMatchObject({ result: '1-0', text: 'Black resigns: White wins.', termination: 'normal' });
    expect(notes).toEqual(['Black resigns: White wins. (1-0)']);
    expect(turns.at(-1)).toBe('over');
    controller.move('Kg8');
    controller.resign();
    controller.offerDraw();
    expect(messages).toEqual([
      'The game is over: new starts another, undo takes back the last move.',
      'The game is already over.',
      'The game is already over.',
    ]);
    expect(controller.pgn()).toMatch(/\[Result "1-0"\][\s\S]*\[Termination "normal"\][\s\S]*1-0\n$/);
  });

  it('a flag fall ends the game: a loss, or a draw when the other side cannot mate', () => {
    let now = 0;
    const time = { initialMs: 60_000, incrementMs: 0 };
    const lost = make({ time, players: ['human', 'human'] }, { now: () => now });
    lost.controller.start();
    lost.controller.move('e4');
    now += 30_000;
    lost.controller.checkClock();
    expect(lost.controller.game.end).toBeNull();
    expect(lost.controller.timeLeft(1)).toBe(30_000);
    now += 30_000;
    lost.controller.checkClock();
    expect(lost.controller.game.end).toMatchObject({ result: '1-0', termination: 'time forfeit' });
    expect(lost.notes).toEqual(["Black's time is up: White wins. (1-0)"]);

    now = 0;
    const drawn = make({ time, fen: MATE_IN_TWO }, { now: () => now });
    drawn.controller.start();
    now += 60_001;
    drawn.controller.checkClock();
    expect(drawn.controller.game.end).toMatchObject({ result: '1/2-1/2', termination: 'time forfeit' });
    expect(drawn.notes).toEqual(["White's time is up, but Black cannot mate: a draw. (1/2-1/2)"]);
  });

  it('a move typed after the flag fell loses on time, and a game lost on time cannot be taken back', () => {
    let now = 0;
    const time = { initialMs: 1_000, incrementMs: 5_000 };
    const { controller, messages } = make({ time, players: ['human', 'human'] }, { now: () => now });
    controller.start();
    now += 1_050; // before the timer's next check
    controller.move('e4');
    expect(controller.game.moves).toHaveLength(0);
    expect(controller.game.end).toMatchObject({ result: '0-1', termination: 'time forfeit' });
    controller.undo();
    controller.move('e4');
    expect(messages).toEqual(['A game lost on time cannot be taken back: new starts another.', 'The game is over: new starts another.']);
    expect(controller.game.end).toMatchObject({ termination: 'time forfeit' });
  });

  it('a flag fall while the engine thinks drops its answer', async () => {
    let now = 0;
    const { controller, engine } = make({ time: { initialMs: 60_000, incrementMs: 0 }, players: ['engine', 'human'] }, { now: () => now });
    engine.onStop = outcome('e2e4', [line(['e2e4'], 30)]);
    const thinking = next(controller, 'thinking');
    controller.start();
    await thinking;
    expect(engine.requests[0].params.wtime).toBe(60_000);
    now += 60_000;
    controller.checkClock();
    expect(engine.requests[0].stopped).toBe(true);
    expect(controller.game.end).toMatchObject({ result: '0-1', text: "White's time is up: Black wins." });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(controller.game.moves).toHaveLength(0);
    expect(controller.thinking).toBeNull();
  });

  it('stop makes the engine move now; a new game while it thinks starts over, and it moves again', async () => {
    const { controller, engine, notes, messages } = make({ players: ['engine', 'human'] });
    controller.stop();
    expect(messages).toEqual(['Nothing to stop: the engine is not thinking.']);
    engine.onStop = outcome('d2d4', [line(['d2d4'], 25, 9)]);
    let thinking = next(controller, 'thinking');
    controller.start();
    await thinking;
    controller.setLevel({ kind: 'elo', elo: 1500 });
    expect(messages.at(-1)).toMatch(/^Kestrel now plays at Elo 1500 \(between levels \d+ and \d+\), from its next move\.$/);
    let moved = personOrOver(controller);
    controller.stop();
    await moved;
    expect(notes).toEqual(['Kestrel plays 1. d4 (depth 9, +0.25)']);

    controller.newGame();
    expect(engine.cleared).toBe(1);
    thinking = next(controller, 'thinking');
    await thinking;
    engine.onStop = outcome('g1f3');
    moved = personOrOver(controller);
    thinking = next(controller, 'thinking');
    controller.newGame(); // drops the search; the engine moves once it has answered
    await thinking;
    expect(engine.requests.map((r) => r.stopped)).toEqual([true, true, false]);
    controller.stop();
    await moved;
    expect(controller.game.moves.map((m) => m.san)).toEqual(['Nf3']);
    expect(notes.slice(1)).toEqual(['A new game.', 'A new game.', 'Kestrel plays 1. Nf3']);
  });

  it('a stop given with a move, before the engine’s search begins, is for that search', async () => {
    const { controller, engine, notes, messages } = make({});
    engine.onStop = outcome('e7e5');
    controller.start();
    const replied = personOrOver(controller);
    controller.move('e4');
    controller.stop(); // the same burst of input: the engine's turn is scheduled, its search not yet begun
    await replied;
    expect(engine.requests.map((r) => r.stopped)).toEqual([true]);
    expect(notes).toEqual(['Kestrel plays 1... e5']);
    controller.stop();
    expect(messages).toEqual(['Nothing to stop: the engine is not thinking.']);
  });

  it('a stop while a dropped search finishes is for the search that follows it', async () => {
    const { controller, engine, notes } = make({ players: ['engine', 'human'] });
    engine.onStop = outcome('d2d4');
    const thinking = next(controller, 'thinking');
    controller.start();
    await thinking;
    const moved = personOrOver(controller);
    controller.newGame(); // drops the search: its answer is thrown away, and the engine searches again after it
    controller.stop();
    await moved;
    expect(engine.requests.map((r) => r.stopped)).toEqual([true, true]);
    expect(notes).toEqual(['A new game.', 'Kestrel plays 1. d4']);
  });

  it('hint: the engine’s best move for the person, at the level’s node budget', async () => {
    const { controller, engine, messages } = make({ level: { kind: 'skill', skill: 3 } });
    engine.answer = () => outcome('g1f3', [line(['g1f3', 'd7d5', 'd2d4'], 30, 5)]);
    controller.start();
    await controller.hint();
    expect(engine.requests[0].params.softNodes).toBeGreaterThan(0);
    expect(engine.requests[0].options.strength).toBeUndefined();
    expect(messages).toEqual(['Hint: 1. Nf3 (+0.30, depth 5; line 1. Nf3 d5 2. d4)']);
    expect(controller.game.moves).toHaveLength(0);
  });

  it('save writes the game as PGN, with the engine’s evaluations; a failed write says why', async () => {
    const files = new Map<string, string>();
    const writeFile = (path: string, text: string): void => {
      if (path.startsWith('/missing/')) throw Object.assign(new Error('no such directory'), { code: 'ENOENT' });
      files.set(path, text);
    };
    const { controller, engine, messages } = make({ fen: MATE_IN_TWO, level: { kind: 'skill', skill: 3 } }, { writeFile });
    engine.answer = () => outcome('h8g8', [line(['h8g8', 'a1a8'], -29_998)]);
    controller.start();
    const replied = personOrOver(controller);
    controller.move('Kg6');
    await replied;
    controller.move('Ra8');
    expect(controller.game.end?.text).toBe('Checkmate: White wins.');
    controller.save('game.pgn');
    controller.save('/missing/game.pgn');
    controller.save('');
    expect(messages).toEqual([
      'Saved the game (3 plies) to game.pgn.',
      'save: cannot write /missing/game.pgn: no such directory.',
      'save: give a file name, for example save game.pgn',
    ]);
    const pgn = files.get('game.pgn')!;
    expect(pgn).toContain('[White "Human"]\n[Black "Kestrel level 3"]\n[Result "1-0"]');
    expect(pgn).toContain(`[FEN "${MATE_IN_TWO}"]`);
    expect(pgn).toMatch(/\n1\. Kg6 Kg8 \{\[%eval #1\]\} 2\. Ra8# \{Checkmate: White wins\.\} 1-0\n$/);
  });

  it('without a way to write files, save says it cannot', () => {
    const { controller, messages } = make({});
    controller.save('game.pgn');
    expect(messages).toEqual(['save: cannot write game.pgn.']);
  });

  it('two engines play from the book: the same seed gives the same opening', async () => {
    const opening = async (seed: number): Promise<string[]> => {
      const { controller, engine } = make({ players: ['engine', 'engine'], book: true, seed });
      engine.answer = () => null; // out of the book: the game stops here (the test ends it)
      const done = next(controller, 'thinking');
      controller.start();
      await done;
      const moves = controller.game.moves.map((m) => m.san);
      controller.close();
      expect(engine.closed).toBe(true);
      return moves;
    };
    const a = await opening(5);
    expect(a.length).toBeGreaterThan(4);
    expect(await opening(5)).toEqual(a);
  });

  it('reports nothing after close', async () => {
    const { controller, engine, messages, turns } = make({ players: ['engine', 'human'] });
    const thinking = next(controller, 'thinking');
    controller.start();
    await thinking;
    expect(turns).toEqual(['engine']);
    controller.close();
    expect(engine.requests[0].stopped).toBe(true);
    expect(engine.closed).toBe(true);
    controller.stop();
    controller.undo();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(messages).toEqual([]);
    expect(turns).toEqual(['engine']);
    expect(controller.game.moves).toHaveLength(0);
  });
});

describe('the game controller with the real engine', () => {
  it('plays a forced reply and the game ends in mate', async () => {
    const { controller, notes } = make({ fen: MATE_IN_TWO, level: { kind: 'skill', skill: 3 } }, { engine: undefined });
    controller.start();
    const replied = personOrOver(controller);
    controller.move('Kg6');
    await replied;
    expect(controller.game.moves.map((m) => m.san)).toEqual(['Kg6', 'Kg8']);
    expect(notes[0]).toMatch(/^Kestrel plays 1\.\.\. Kg8 \(depth \d+, #1\)$/);
    controller.move('Ra8#');
    expect(notes.slice(1)).toEqual(['Checkmate: White wins. (1-0)']);
  }, 30_000);
});
