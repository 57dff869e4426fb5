// The game controller of `kestrel play`: one game between people and the
// engine, with everything but the screen and the keyboard. It holds the
// game (game.ts), the clocks (clock.ts), the level and the opening book, and
// gets the engine's moves, hints and answers to draw offers from the engine
// host (engine/host.ts). Front ends drive it with method calls (a move,
// undo, hint, draw, resign, new game, level, stop, save) and follow it
// through events (PlayEvents): the game changed, a message for the players,
// the engine's thinking, whose turn it is, the clocks' tick, a failure.
// It writes nothing to a screen and reads no input: the terminal
// (terminal.ts) is one front end, and a web page could be another.
//
// Guarantees:
//   - one search at a time; a search whose answer no longer fits the game
//     (a flag fall, resignation, new game, undo, close) is stopped and its
//     answer dropped, and the engine moves again once it has ended if it is
//     then the engine's turn;
//   - the seeded choices (book moves, the levels' seeds) are drawn in the
//     same order for the same moves: the same seed replays the same game;
//   - nothing is reported after close().

import { parseUciMove } from '../board/notation.js';
import { BLACK, WHITE } from '../board/types.js';
import type { SearchOutcome } from '../engine/host-search.js';
import { type EngineLine, uciScore } from '../engine/search-lines.js';

import { platform } from '../platform/index.js';
import { Clock } from './clock.js';
import { DRAW_MIN_FULLMOVE, EnginePlayer, type SearchPlan } from './engine-player.js';
import { type ControllerOptions, type GameSettings, Listeners, type PlayEvents, type ThinkingState } from './events.js';
import { Game, drawAgreed, resignation, timeForfeit } from './game.js';
import { type LevelChoice, describeLevel } from './levels.js';
import { readMove } from './move-input.js';
import { formatScore, lineToSan, whiteView } from './notation-view.js';
import { driverNote, introduction, pgnTags, playerName } from './players.js';
import { errorText } from '../util/errors.js';

export type { ControllerOptions, GameSettings, PlayerKind, PlayEvents, ThinkingState, Waiting } from './events.js';
export type { PlayEngine } from './engine-player.js';

/** How often the clocks are checked for a flag fall. */
const TICK_MS = 100;

export class GameController {
  private current: Game;
  private levelChoice: LevelChoice;
  private readonly engine: EnginePlayer;
  private readonly listeners = new Listeners();
  private readonly clock: Clock | null;
  private tickTimer: ReturnType<typeof setInterval> | null = null;
  private closed = false;
  private endAnnounced = false;
  /** The engine's turn is scheduled (engineTurn) and its search has not begun (a dropped one may still be finishing). */
  private engineTurnPending = false;
  /** stop came while engineTurnPending (typed in one burst with a move): that search answers at once. */
  private stopOnStart = false;

  constructor(
    readonly settings: GameSettings,
    private readonly options: ControllerOptions = {},
  ) {
    this.current = new Game(settings.fen);
    this.levelChoice = settings.level;
    this.engine = new EnginePlayer(settings.seed, settings.book, options.engine, settings.syzygyPath);
    this.clock = settings.time === null ? null : new Clock(settings.time, options.now);
  }

  /** Follows the game's events; returns a function that stops following. */
  subscribe(listener: Partial<PlayEvents>): () => void {
    return this.listeners.add(listener);
  }

  // ---------------------------------------------------------------------------
  // State.

  get game(): Game {
    return this.current;
  }

  get level(): LevelChoice {
    return this.levelChoice;
  }

  /** The search under way, if any. */
  get thinking(): ThinkingState | null {
    return this.engine.thinking;
  }

  /** Time left for side (the running clock counting down), or null without clocks. */
  timeLeft(side: number): number | null {
    return this.clock === null ? null : this.clock.remaining(side);
  }

  isPerson(side: number): boolean {
    return this.settings.players[side] === 'human';
  }

  /** The game is over or a person is to move. */
  waitsForPerson(): boolean {
    return this.current.end !== null || this.isPerson(this.current.pos.side);
  }

  /** "You", "Kestrel", "White" (two people), "Kestrel level 7 (White)" (two engines). */
  playerName(side: number): string {
    return playerName(this.settings.players, this.levelChoice, side);
  }

  /** Who plays whom, at which level and clock, and the seed, in a sentence. */
  introduction(): string {
    return introduction(this.settings, this.levelChoice);
  }

  /** The game so far as PGN, with the engine's evaluations and the clocks. */
  pgn(): string {
    return this.current.toPgn(pgnTags(this.settings, this.levelChoice));
  }

  // ---------------------------------------------------------------------------
  // Starting and ending.

  /** Starts the engine now, so that its first move does not wait for it. Throws if it cannot start. */
  warm(): void {
    this.engine.warm();
  }

  /** Begins the game: `changed` with no notes, then the first turn. */
  start(): void {
    this.warm();
    if (this.clock !== null) this.tickTimer = setInterval(() => this.checkClock(), TICK_MS);
    this.emit('changed', { notes: [], ended: false });
    this.startTurn();
  }

  /** Stops the engine and the clocks' timer; nothing is reported afterwards. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.tickTimer !== null) clearInterval(this.tickTimer);
    this.engine.close();
  }

  // ---------------------------------------------------------------------------
  // Commands.

  /** A person's move, in SAN or UCI; a move that cannot be played gets a message. */
  move(text: string): void {
    const game = this.current;
    if (game.end !== null) {
      const onTime = game.end.termination === 'time forfeit';
      this.say(`The game is over: new starts another${onTime ? '.' : ', undo takes back the last move.'}`);
      return;
    }
    const side = game.pos.side;
    if (!this.isPerson(side)) {
      this.say(`It is not your move (${this.playerName(side)} is to move).`);
      return;
    }
    if (this.flagFell(side)) return;
    const reading = readMove(game.pos, text);
    if (!('move' in reading)) {
      this.say(reading.close.length > 0 ? `${reading.error}. Try: ${reading.close.join(', ')}` : `${reading.error}.`);
      return;
    }
    this.engine.drop(); // a hint or a draw offer being weighed
    const clockMs = this.clock?.punch();
    game.play(reading.move, { clockMs });
    this.afterMove([]);
  }

  /** Takes back the last person's move and the engine's reply (one move between two people). */
  undo(): void {
    const [white, black] = this.settings.players;
    if (white === 'engine' && black === 'engine') {
      this.say('Nothing to take back: no person plays in this game.');
      return;
    }
    // Back to the last position where a person was to move before they moved.
    const game = this.current;
    if (game.end?.termination === 'time forfeit') {
      // The clocks cannot be wound back: the flag would fall again at once.
      this.say('A game lost on time cannot be taken back: new starts another.');
      return;
    }
    const lastHuman = game.moves.map((_, i) => this.isPerson(game.sideOf(i))).lastIndexOf(true);
    if (lastHuman < 0) {
      this.say('Nothing to take back.');
      return;
    }
    this.engine.drop();
    const taken: string[] = [];
    while (game.moves.length > lastHuman) taken.unshift(game.undo()!.san);
    this.clock?.pause();
    this.endAnnounced = false;
    this.emit('changed', { notes: [`Took back ${taken.join(' ')}.`], ended: false });
    this.startTurn();
  }

  /** The engine's best move for the person to move, at the level's node budget; resolves once told. */
  async hint(): Promise<void> {
    const game = this.current;
    if (game.end !== null || !this.isPerson(game.pos.side)) {
      this.say('A hint is for a person to move.');
      return;
    }
    if (this.thinking !== null) {
      this.say('Kestrel is thinking already.');
      return;
    }
    const side = game.pos.side;
    const outcome = await this.think('hint', EnginePlayer.hintPlan(this.levelChoice, this.settings.driver));
    if (outcome === null || this.closed) return;
    const line = outcome.lines[0];
    if (line === undefined || line.pv.length === 0) {
      this.say('No hint: there is no move to play.');
      return;
    }
    const number = game.moveNumber();
    const score = formatScore(whiteView(uciScore(line), side));
    this.say(
      `Hint: ${lineToSan(game.pos, line.pv.slice(0, 1), number)} (${score}, depth ${line.depth}; line ${lineToSan(game.pos, line.pv, number)})`,
    );
  }

  /** The person (with two people, the side to move) resigns. */
  resign(): void {
    const game = this.current;
    if (game.end !== null) {
      this.say('The game is already over.');
      return;
    }
    const [white, black] = this.settings.players;
    let loser: number;
    if (white === 'human' && black === 'human') loser = game.pos.side;
    else if (white === 'human') loser = WHITE;
    else if (black === 'human') loser = BLACK;
    else {
      this.say('Only a person can resign.');
      return;
    }
    this.engine.drop();
    game.end = resignation(loser);
    this.startTurn();
  }

  /**
   * A person offers a draw: two people agree at once; the engine accepts from
   * move DRAW_MIN_FULLMOVE when its search finds the game about level.
   * Resolves once answered.
   */
  async offerDraw(): Promise<void> {
    const game = this.current;
    if (game.end !== null) {
      this.say('The game is already over.');
      return;
    }
    const [white, black] = this.settings.players;
    if (white === black) {
      if (white === 'engine') {
        this.say('Only a person can offer a draw.');
        return;
      }
      this.agreeDraw();
      return;
    }
    const engineSide = white === 'engine' ? WHITE : BLACK;
    if (game.pos.side === engineSide) {
      this.say('Offer a draw on your own move.');
      return;
    }
    if (game.pos.fullmove < DRAW_MIN_FULLMOVE) {
      this.say(`Kestrel declines: it is early in the game (it considers draws from move ${DRAW_MIN_FULLMOVE}).`);
      return;
    }
    if (this.thinking !== null) {
      this.say('Kestrel is thinking already.');
      return;
    }
    const outcome = await this.think('draw', EnginePlayer.drawPlan);
    if (outcome === null || this.closed) return;
    const { accept, mine } = EnginePlayer.judgeDraw(outcome);
    if (accept) {
      this.agreeDraw();
    } else {
      const view = mine === null ? '' : ` (it sees ${formatScore(whiteView(mine, engineSide))})`;
      this.say(`Kestrel declines the draw${view}.`);
    }
  }

  /** The engine's level from its next move. */
  setLevel(choice: LevelChoice): void {
    this.levelChoice = choice;
    const note = driverNote(this.settings, choice);
    this.say(
      `Kestrel now plays at ${describeLevel(choice)}${this.thinking?.purpose === 'move' ? ', from its next move' : ''}.${note === '' ? '' : ` ${note}`}`,
    );
  }

  /** A new game with the same settings. */
  newGame(): void {
    this.engine.drop();
    this.current = new Game(this.settings.fen);
    this.clock?.reset();
    this.endAnnounced = false;
    this.engine.clear();
    this.emit('changed', { notes: ['A new game.'], ended: false });
    this.startTurn();
  }

  /** Makes the engine move (or answer) now. */
  stop(): void {
    if (this.engine.stop()) return;
    if (this.engineTurnPending) this.stopOnStart = true;
    else this.say('Nothing to stop: the engine is not thinking.');
  }

  /** Writes the game as PGN to path. */
  save(path: string): void {
    if (path === '') {
      this.say('save: give a file name, for example save game.pgn');
      return;
    }
    const write = this.options.writeFile;
    try {
      if (write === undefined) throw new Error('no files here');
      write(path, this.pgn());
      this.say(`Saved the game (${this.current.moves.length} plies) to ${path}.`);
    } catch (e) {
      const code = (e as { code?: string }).code;
      this.say(`save: cannot write ${path}${code === 'ENOENT' ? ': no such directory' : code === 'EACCES' ? ': permission denied' : ''}.`);
    }
  }

  /** Ends the game if the running side's time is up, else reports a tick (called every TICK_MS after start). */
  checkClock(): void {
    if (this.clock === null || this.closed || this.current.end !== null) return;
    const side = this.clock.runningSide;
    if (side !== null && this.clock.remaining(side) <= 0) {
      this.flagFall(side);
      return;
    }
    this.emit('tick');
  }

  // ---------------------------------------------------------------------------
  // Turns.

  private emit<K extends keyof PlayEvents>(name: K, ...args: Parameters<PlayEvents[K]>): void {
    if (!this.closed) this.listeners.emit(name, ...args);
  }

  private say(...lines: string[]): void {
    this.emit('message', lines);
  }

  /** Whoever is to move moves: the engine searches, a person is waited for. Announces the end of a game once. */
  private startTurn(): void {
    if (this.closed) return;
    this.engineTurnPending = false;
    this.stopOnStart = false;
    const game = this.current;
    if (game.end !== null) {
      this.clock?.pause();
      const notes: string[] = [];
      if (this.announceEnd(notes)) this.emit('changed', { notes, ended: true });
      this.emit('turn', 'over');
      return;
    }
    const side = game.pos.side;
    if (this.clock !== null && this.clock.runningSide !== side) this.clock.start(side);
    if (this.isPerson(side)) this.emit('turn', 'person');
    else this.engineTurn();
  }

  /** The engine moves soon: first the front end may give the commands waiting (quit, Ctrl-C). */
  private engineTurn(): void {
    this.engineTurnPending = true;
    platform.soon(() => {
      if (this.closed) return;
      this.emit('turn', 'engine');
      // A search whose answer is dropped, still finishing: think() starts the turn again once it has (still pending).
      if (this.closed || this.thinking !== null) return;
      const stopAtOnce = this.stopOnStart;
      this.engineTurnPending = false;
      this.stopOnStart = false;
      if (this.current.end === null && !this.isPerson(this.current.pos.side)) void this.engineMove(stopAtOnce);
    });
  }

  private afterMove(notes: string[]): void {
    const ended = this.announceEnd(notes);
    this.emit('changed', { notes, ended });
    this.startTurn();
  }

  /** Adds the end of the game to the notes, once. */
  private announceEnd(notes: string[]): boolean {
    const end = this.current.end;
    if (end === null || this.endAnnounced) return false;
    this.endAnnounced = true;
    notes.push(`${end.text} (${end.result})`);
    return true;
  }

  private agreeDraw(): void {
    this.current.end = drawAgreed();
    this.startTurn();
  }

  /** Ends the game if `side`'s time ran out before its move came (the timer checks only every TICK_MS); true when it did. */
  private flagFell(side: number): boolean {
    if (this.clock === null || this.clock.runningSide !== side || this.clock.remaining(side) > 0) return false;
    this.flagFall(side);
    return true;
  }

  private flagFall(side: number): void {
    this.engine.drop();
    this.clock?.pause();
    this.current.end = timeForfeit(this.current.pos, side);
    this.startTurn();
  }

  private async engineMove(stopAtOnce: boolean): Promise<void> {
    const game = this.current;
    const side = game.pos.side;
    const book = this.engine.bookMove(game);
    if (book !== null) {
      this.playEngineMove(book, undefined, 'book move');
      return;
    }
    const outcome = await this.think('move', this.engine.movePlan(this.levelChoice, this.clock, this.settings.driver), stopAtOnce);
    if (outcome === null || this.closed || game !== this.current || game.end !== null || game.pos.side !== side) return;
    let move: number;
    try {
      move = parseUciMove(game.pos, outcome.bestMove);
    } catch {
      this.fail(`The engine answered ${outcome.bestMove}, which is not legal here; the game stops.`);
      return;
    }
    this.playEngineMove(move, outcome.lines[0], undefined);
  }

  private playEngineMove(move: number, line: EngineLine | undefined, note: string | undefined): void {
    const game = this.current;
    const side = game.pos.side;
    if (this.flagFell(side)) return;
    const number = game.moveNumber();
    const clockMs = this.clock?.punch();
    const evalWhite = line === undefined ? undefined : whiteView(uciScore(line), side);
    const played = game.play(move, { eval: evalWhite, clockMs });
    const detail = note ?? (line === undefined || evalWhite === undefined ? '' : `depth ${line.depth}, ${formatScore(evalWhite)}`);
    this.afterMove([`${this.playerName(side)} plays ${number} ${played.san}${detail === '' ? '' : ` (${detail})`}`]);
  }

  /** Searches the current position, reporting its thinking; null if its answer is dropped. */
  private async think(purpose: ThinkingState['purpose'], plan: SearchPlan, stopAtOnce = false): Promise<SearchOutcome | null> {
    const who =
      purpose === 'move'
        ? `${this.playerName(this.current.pos.side)} thinks`
        : purpose === 'hint'
          ? 'Looking for a hint'
          : 'Kestrel considers the offer';
    let search: ReturnType<EnginePlayer['think']>;
    try {
      search = this.engine.think(this.current, purpose, who, plan, (state) => this.emit('thinking', state));
    } catch (e) {
      this.fail(`The engine could not start: ${errorText(e)}`);
      return null;
    }
    this.emit('thinking', search.state);
    if (stopAtOnce) this.engine.stop();
    let outcome: SearchOutcome | null;
    try {
      outcome = await search.done;
    } catch (e) {
      if (!this.closed) this.fail(`The engine failed: ${errorText(e)}`);
      return null;
    }
    if (outcome === null || this.closed) {
      // Dropped because the game moved on: the engine's turn, if it is one, starts now.
      if (!this.closed && this.current.end === null && !this.isPerson(this.current.pos.side)) this.engineTurn();
      // The game ended while it thought (a flag fell): input waits no longer, and may end the program.
      else if (!this.closed && this.current.end !== null) this.emit('turn', 'over');
      return null;
    }
    this.emit('thought', search.state);
    return outcome;
  }

  private fail(text: string): void {
    this.emit('failed', text);
    this.close();
  }
}
