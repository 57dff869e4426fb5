// `kestrel play`: a game in the terminal. The board is drawn after every
// move; a person types moves (SAN or UCI) and commands; the engine's moves
// come from the engine host (engine/host.ts), so that the keyboard,
// the clocks and Ctrl-C are served while it thinks.
//
// Two ways to run:
//   - interactive (standard input and output are terminals): the screen is
//     redrawn after each move, the prompt shows the clocks, the engine's
//     thinking is one line that updates in place, and quit, stop and a few
//     other commands are answered at once even while it thinks;
//   - piped (standard input is not a terminal): lines are read one after the
//     other, each when the previous has been dealt with (a move waits for the
//     engine's reply), so a script plays like a person; end of input quits
//     when a person is to move.

import { writeFileSync } from 'node:fs';
import { type Interface, createInterface } from 'node:readline';
import { parseUciMove } from '../board/notation.js';
import { cannotMateBy } from '../board/rules.js';
import { BLACK, WHITE } from '../board/types.js';
import { OpeningBook } from '../book/reader.js';
import { platform } from '../platform/index.js';
import { HARD_NODES_FACTOR, seededRandom } from '../search/strength.js';
import { EngineHost, type SearchHandle, type SearchOutcome } from '../engine/host.js';
import { type EngineLine, type UciScore, uciScore } from '../engine/info.js';
import { DEFAULT_HASH_MB } from '../search/tt.js';
import { engineVersion } from '../uci/version.js';
import { renderBoard } from './board-view.js';
import { Clock, type TimeControl, formatClock, timeControlTag } from './clock.js';
import { Game } from './game.js';
import { LEVEL_HELP, type LevelChoice, describeLevel, engineName, levelLimit, parseLevel } from './levels.js';
import { readMove } from './move-input.js';
import { formatScore, lineToSan } from './notation-view.js';

export type PlayerKind = 'human' | 'engine';

export interface PlaySettings {
  fen: string;
  /** White's and Black's player. */
  players: [PlayerKind, PlayerKind];
  time: TimeControl | null;
  level: LevelChoice;
  seed: number;
  /** Letters instead of Unicode pieces and colours. */
  ascii: boolean;
  /** The engine plays from the shipped opening book while it has moves. */
  book: boolean;
}

export interface PlayTerminal {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream & { columns?: number };
  /** Standard input and output are terminals: redraws, prompts, keys answered at once. */
  interactive: boolean;
  /** Colours the output has (24, 8 or 4), or null for none. */
  colorDepth: number | null;
}

/** The engine thinks this long a move at full strength without a clock, and for a hint then. */
const FULL_STRENGTH_MOVETIME_MS = 1000;
/** The engine accepts a draw from this move on... */
const DRAW_MIN_FULLMOVE = 30;
/** ...when its evaluation, its own view, is at most this (near zero, or worse for it). */
const DRAW_ACCEPT_CP = 25;
/** The search that judges a draw offer. */
const DRAW_CHECK_NODES = 50_000;
/** Book moves are played for at most this many plies. */
const BOOK_MAX_PLIES = 16;
/** How often the clocks are checked for a flag fall (and the prompt's clocks refreshed). */
const TICK_MS = 100;
/** How long a stopped search may take to answer before the host plays for it. */
const STOP_GRACE_MS = 2000;
/** Plies of moves shown under the board. */
const MOVES_SHOWN = 16;

const ESC = '\u001b[';

const HELP = [
  'Moves: SAN (Nf3, exd5, O-O or 0-0, e8=Q) or UCI (g1f3); check marks and !? are ignored.',
  'Piece letters are capitals: bxc6 is a pawn, Bxc6 a bishop.',
  'Commands:',
  '  help          this list',
  '  undo          take back your last move (and the reply)',
  "  hint          the engine's best move at the current level",
  '  flip          turn the board round',
  '  new           start again',
  '  fen           the position as FEN',
  '  pgn           the game so far as PGN',
  "  save <file>   write the game as PGN, with the engine's evaluations",
  '  resign        give up the game',
  '  draw          offer a draw',
  `  level <n>     ${LEVEL_HELP}`,
  '  stop          make the engine move now (while it thinks)',
  '  quit          leave (Ctrl-C too)',
  "Scores are from White's side: +1.00 is a pawn up for White, #3 White mates in 3.",
];

interface Thinking {
  handle: SearchHandle;
  purpose: 'move' | 'hint' | 'draw';
  side: number;
  /** Set when the result must be dropped (flag fall, new game, quit). */
  discard: boolean;
}

export class PlaySession {
  private game: Game;
  private readonly engine = new EngineHost({ hashMb: DEFAULT_HASH_MB, threads: 1, keepAlive: 'always', stopGraceMs: STOP_GRACE_MS });
  private rl: Interface | null = null;
  private readonly queue: string[] = [];
  private inputClosed = false;
  private draining = false;
  private thinking: Thinking | null = null;
  private status = '';
  private flipped: boolean;
  private level: LevelChoice;
  private readonly random: () => number;
  private readonly clock: Clock | null;
  private book: OpeningBook | null = null;
  private tick: ReturnType<typeof setInterval> | null = null;
  private lastClockText = '';
  private quitting = false;
  private endAnnounced = false;
  /** Lines to show under the board at the next redraw. */
  private notes: string[] = [];
  private resolveExit: (code: number) => void = () => {};

  constructor(
    private readonly settings: PlaySettings,
    private readonly term: PlayTerminal,
  ) {
    this.game = new Game(settings.fen);
    this.level = settings.level;
    this.random = seededRandom(settings.seed);
    this.clock = settings.time === null ? null : new Clock(settings.time);
    this.flipped = settings.players[WHITE] === 'engine' && settings.players[BLACK] === 'human';
    if (settings.book) {
      try {
        const shipped = platform.shippedBook();
        this.book = shipped.embedded ? OpeningBook.fromBytes(shipped.bytes(), shipped.name) : OpeningBook.open(shipped.name);
      } catch {
        this.book = null; // no book: the engine searches from the first move
      }
    }
  }

  /** Plays until quit; resolves with the exit code. */
  run(): Promise<number> {
    const exited = new Promise<number>((resolve) => {
      this.resolveExit = resolve;
    });
    this.engine.warm();
    this.listen();
    this.intro();
    if (this.clock !== null) this.tick = setInterval(() => this.onTick(), TICK_MS);
    this.redraw();
    this.startTurn();
    return exited;
  }

  // ---------------------------------------------------------------------------
  // Output.

  private write(text: string): void {
    this.term.output.write(text);
  }

  /** Prints lines (above the prompt, which is shown again after them). */
  private print(...lines: string[]): void {
    if (this.term.interactive) this.write(`\r${ESC}K`);
    this.write(`${lines.join('\n')}\n`);
    this.showPrompt();
  }

  private player(side: number): string {
    const kind = this.settings.players[side];
    if (kind === 'engine')
      return this.settings.players[side ^ 1] === 'engine' ? `${engineName(this.level)} (${Game.colorName(side)})` : 'Kestrel';
    return this.settings.players[side ^ 1] === 'human' ? Game.colorName(side) : 'You';
  }

  private intro(): void {
    const [white, black] = this.settings.players;
    const level = describeLevel(this.level);
    let who: string;
    if (white === 'human' && black === 'human') who = 'two players at one keyboard';
    else if (white === 'engine' && black === 'engine') who = `Kestrel against itself at ${level}`;
    else who = `you play ${white === 'human' ? 'White' : 'Black'}; Kestrel plays at ${level}`;
    const clock =
      this.settings.time === null
        ? ''
        : `, ${formatClock(this.settings.time.initialMs)} + ${this.settings.time.incrementMs / 1000} s a move`;
    this.notes.push(`Kestrel ${engineVersion()}: ${who}${clock}. Seed ${this.settings.seed}. Type help for the commands.`);
  }

  /** The clocks as one line: "White 4:58  Black 5:00". */
  private clocksText(): string {
    if (this.clock === null) return '';
    return `White ${formatClock(this.clock.remaining(WHITE))}  Black ${formatClock(this.clock.remaining(BLACK))}`;
  }

  /** The board with players, clocks and the last moves; then the notes. */
  private redraw(): void {
    const style = this.term.colorDepth !== null && !this.settings.ascii ? 'color' : 'ascii';
    const last = this.game.lastMove;
    const board = renderBoard(this.game.pos, {
      style,
      colorDepth: this.term.colorDepth ?? undefined,
      flipped: this.flipped,
      lastMove: last === null ? null : { from: last.from, to: last.to },
    });
    const top = this.flipped ? WHITE : BLACK;
    const label = (side: number): string => {
      const clock = this.clock === null ? '' : `  ${formatClock(this.clock.remaining(side))}`;
      const turn = this.game.end === null && this.game.pos.side === side ? '  (to move)' : '';
      // The player's name, unless the colour says it all (two people); two engines by their level.
      const [white, black] = this.settings.players;
      const name = white === black ? (white === 'engine' ? `${engineName(this.level)}, ` : '') : `${this.player(side)}, `;
      return `  ${name}${Game.colorName(side)}${clock}${turn}`;
    };
    const lines = [label(top), ...board, label(top ^ 1)];
    if (this.game.moves.length > 0) lines.push('', `  ${this.game.movesText(MOVES_SHOWN)}`);
    lines.push('', ...this.notes);
    this.notes = [];
    if (this.term.interactive) this.write(`${ESC}H${ESC}2J`);
    this.write(`${lines.join('\n')}\n`);
    this.showPrompt();
  }

  /** The prompt (interactive only): the engine's thinking, or whose move it is, after the clocks. */
  private showPrompt(): void {
    if (!this.term.interactive || this.rl === null || this.quitting) return;
    const clocks = this.clocksText();
    let text: string;
    if (this.thinking !== null) text = this.status;
    else if (this.game.end !== null) text = 'Game over (save <file>, new, quit)';
    else if (this.settings.players[this.game.pos.side] === 'human') {
      text = `${this.game.moveNumber()} ${this.player(this.game.pos.side) === 'You' ? 'Your move' : `${Game.colorName(this.game.pos.side)} to move`}`;
    } else text = '';
    const full = `${clocks === '' ? '' : `[${clocks}] `}${text}> `;
    const width = (this.term.output.columns ?? 80) - 12;
    this.rl.setPrompt(full.length > width ? `${full.slice(0, width - 4)}...> ` : full);
    this.rl.prompt(true);
  }

  // ---------------------------------------------------------------------------
  // Input.

  private listen(): void {
    const rl = createInterface({
      input: this.term.input,
      output: this.term.interactive ? this.term.output : undefined,
      terminal: this.term.interactive,
      crlfDelay: Infinity,
    });
    this.rl = rl;
    rl.on('line', (line) => this.onLine(line));
    rl.on('close', () => {
      this.inputClosed = true;
      if (this.term.interactive) void this.quit(0);
      else this.drain();
    });
    // Ctrl-C: in a terminal readline reports it; otherwise the process gets SIGINT.
    rl.on('SIGINT', () => void this.quit(130));
    process.on('SIGINT', () => void this.quit(130));
    process.on('SIGTERM', () => void this.quit(143));
  }

  private onLine(line: string): void {
    if (this.quitting) return;
    if (!this.term.interactive) {
      this.queue.push(line);
      this.drain();
      return;
    }
    if (this.thinking !== null) {
      const word = line.trim().split(/\s+/)[0].toLowerCase();
      if (['quit', 'exit', 'stop', 'flip', 'help', 'fen', 'pgn', 'save', 'level', ''].includes(word)) this.handle(line);
      else this.print(`Kestrel is thinking: wait for its move, or type stop to make it move now.`);
      return;
    }
    this.queue.push(line);
    this.drain();
  }

  /** Handles queued lines while nobody thinks; quits at end of input when a person is to move. */
  private drain(): void {
    if (this.draining) return;
    this.draining = true;
    try {
      while (this.acceptsInput() && this.queue.length > 0) this.handle(this.queue.shift()!);
    } finally {
      this.draining = false;
    }
    if (this.inputClosed && this.thinking === null && !this.quitting && this.queue.length === 0 && this.waitsForPerson()) {
      void this.quit(0);
    }
  }

  /** Lines are read when nobody thinks and a person is to move (or the game is over, or only engines play). */
  private acceptsInput(): boolean {
    if (this.thinking !== null || this.quitting) return false;
    return this.waitsForPerson() || !this.settings.players.includes('human');
  }

  private waitsForPerson(): boolean {
    return this.game.end !== null || this.settings.players[this.game.pos.side] === 'human';
  }

  private handle(raw: string): void {
    const line = raw.trim();
    if (!this.term.interactive) this.write(`> ${line}\n`);
    if (line === '') {
      this.showPrompt();
      return;
    }
    const [word, ...rest] = line.split(/\s+/);
    const arg = rest.join(' ');
    switch (word.toLowerCase()) {
      case 'help':
      case '?':
        this.print(...HELP);
        return;
      case 'quit':
      case 'exit':
        void this.quit(0);
        return;
      case 'stop':
        if (this.thinking !== null) this.thinking.handle.stop();
        else this.print('Nothing to stop: the engine is not thinking.');
        return;
      case 'flip':
        this.flipped = !this.flipped;
        this.redraw();
        return;
      case 'fen':
        this.print(this.game.pos.fen());
        return;
      case 'pgn':
        this.print(this.pgn().trimEnd());
        return;
      case 'save':
        this.save(arg);
        return;
      case 'level':
        this.setLevel(arg);
        return;
      case 'new':
        this.newGame();
        return;
      case 'undo':
      case 'takeback':
        this.undo();
        return;
      case 'hint':
        void this.hint();
        return;
      case 'resign':
        this.resign();
        return;
      case 'draw':
        void this.offerDraw();
        return;
      default:
        this.humanMove(line);
    }
  }

  // ---------------------------------------------------------------------------
  // Turns.

  /** Whoever is to move moves: the engine searches, a person is prompted. Announces the end of a game once. */
  private startTurn(): void {
    if (this.quitting) return;
    if (this.game.end !== null) {
      this.clock?.pause();
      if (this.announceEnd()) this.redraw();
      this.drain();
      return;
    }
    const side = this.game.pos.side;
    if (this.clock !== null && this.clock.runningSide !== side) this.clock.start(side);
    if (this.settings.players[side] === 'engine') {
      // Let input (quit, Ctrl-C) through between two engine moves.
      setImmediate(() => this.drainThenEngine());
    } else {
      this.showPrompt();
      this.drain();
    }
  }

  private drainThenEngine(): void {
    this.drain();
    if (this.quitting || this.thinking !== null || this.game.end !== null) return;
    if (this.settings.players[this.game.pos.side] === 'engine') void this.engineMove();
  }

  private nextSeed(): number {
    return Math.floor(this.random() * 0x100000000) | 0;
  }

  private async engineMove(): Promise<void> {
    const side = this.game.pos.side;
    if (this.book !== null && this.game.moves.length < BOOK_MAX_PLIES) {
      const { choice } = this.book.choose(this.game.pos, 'weighted', this.random);
      if (choice !== null) {
        this.afterEngineMove(choice.move, undefined, 'book move');
        return;
      }
    }
    const limit = levelLimit(this.level, this.nextSeed());
    const params = this.clock !== null ? this.clock.goParams() : limit === null ? { movetime: FULL_STRENGTH_MOVETIME_MS } : {};
    const outcome = await this.think('move', params, limit === null ? {} : { strength: limit });
    if (outcome === null || this.quitting || this.game.end !== null || this.game.pos.side !== side) return;
    let move: number;
    try {
      move = parseUciMove(this.game.pos, outcome.bestMove);
    } catch {
      this.print(`The engine answered ${outcome.bestMove}, which is not legal here; the game stops.`);
      void this.quit(1);
      return;
    }
    this.afterEngineMove(move, outcome.lines[0], undefined);
  }

  private afterEngineMove(move: number, line: EngineLine | undefined, note: string | undefined): void {
    const side = this.game.pos.side;
    const number = this.game.moveNumber();
    const clockMs = this.clock?.punch();
    const evalWhite = line === undefined ? undefined : whiteView(uciScore(line), side);
    const played = this.game.play(move, { eval: evalWhite, clockMs });
    const detail = note ?? (line === undefined || evalWhite === undefined ? '' : `depth ${line.depth}, ${formatScore(evalWhite)}`);
    this.notes.push(`${this.player(side)} plays ${number} ${played.san}${detail === '' ? '' : ` (${detail})`}`);
    this.afterMove();
  }

  /** After a move: the board (with the end of the game, if it ended), then the next turn. */
  private afterMove(): void {
    this.announceEnd();
    this.redraw();
    this.startTurn();
  }

  /** Adds the end of the game to the notes, once. */
  private announceEnd(): boolean {
    if (this.game.end === null || this.endAnnounced) return false;
    this.endAnnounced = true;
    this.notes.push(
      `${this.game.end.text} (${this.game.end.result})`,
      'Type save <file> to keep the game as PGN, new for another game, or quit.',
    );
    return true;
  }

  /** Runs a search of the current position with the thinking line; null if dropped. */
  private async think(
    purpose: Thinking['purpose'],
    params: Parameters<EngineHost['search']>[1],
    options: Parameters<EngineHost['search']>[2],
  ): Promise<SearchOutcome | null> {
    const side = this.game.pos.side;
    const spec = this.game.spec();
    const who =
      purpose === 'move' ? `${this.player(side)} thinks` : purpose === 'hint' ? 'Looking for a hint' : 'Kestrel considers the offer';
    this.status = `${who}...`;
    let latest: EngineLine | null = null;
    let handle: SearchHandle;
    try {
      handle = this.engine.search(spec, params, options, (info) => {
        if (info.bound !== 'exact' || info.multipv !== 1) return;
        latest = info;
        this.status = `${who}: depth ${info.depth}  ${formatScore(whiteView(uciScore(info), side))}  ${lineToSan(this.game.pos, info.pv, this.game.moveNumber())}`;
        this.showPrompt();
      });
    } catch (e) {
      this.print(`The engine could not start: ${e instanceof Error ? e.message : String(e)}`);
      void this.quit(1);
      return null;
    }
    const thinking: Thinking = { handle, purpose, side, discard: false };
    this.thinking = thinking;
    this.showPrompt();
    let outcome: SearchOutcome | null = null;
    try {
      outcome = await handle.done;
    } catch (e) {
      if (!this.quitting) {
        this.print(`The engine failed: ${e instanceof Error ? e.message : String(e)}`);
        void this.quit(1);
      }
      return null;
    } finally {
      if (this.thinking === thinking) this.thinking = null;
    }
    if (thinking.discard || this.quitting) return null;
    // Piped: the thinking is shown once, as a line of its own.
    if (!this.term.interactive && latest !== null && purpose === 'move') this.notes.push(this.status);
    return outcome;
  }

  private humanMove(text: string): void {
    if (this.game.end !== null) {
      this.print('The game is over: new starts another, undo takes back the last move.');
      return;
    }
    const side = this.game.pos.side;
    if (this.settings.players[side] !== 'human') {
      this.print(`It is not your move (${this.player(side)} is to move).`);
      return;
    }
    const reading = readMove(this.game.pos, text);
    if (!('move' in reading)) {
      this.print(reading.close.length > 0 ? `${reading.error}. Try: ${reading.close.join(', ')}` : `${reading.error}.`);
      return;
    }
    const clockMs = this.clock?.punch();
    this.game.play(reading.move, { clockMs });
    this.afterMove();
  }

  // ---------------------------------------------------------------------------
  // Commands.

  private undo(): void {
    const [white, black] = this.settings.players;
    if (white === 'engine' && black === 'engine') {
      this.print('Nothing to take back: no person plays in this game.');
      return;
    }
    // Back to the last position where a person was to move before they moved.
    const humans = this.game.moves.map((_, i) => this.settings.players[this.game.sideOf(i)] === 'human');
    const lastHuman = humans.lastIndexOf(true);
    if (lastHuman < 0) {
      this.print('Nothing to take back.');
      return;
    }
    const taken: string[] = [];
    while (this.game.moves.length > lastHuman) taken.unshift(this.game.undo()!.san);
    this.clock?.pause();
    this.endAnnounced = false;
    this.notes.push(`Took back ${taken.join(' ')}.`);
    this.redraw();
    this.startTurn();
  }

  private async hint(): Promise<void> {
    if (this.game.end !== null || this.settings.players[this.game.pos.side] !== 'human') {
      this.print('A hint is for a person to move.');
      return;
    }
    const limit = levelLimit(this.level, 0);
    const params =
      limit === null ? { movetime: FULL_STRENGTH_MOVETIME_MS } : { softNodes: limit.nodes, nodes: limit.nodes * HARD_NODES_FACTOR };
    const side = this.game.pos.side;
    const outcome = await this.think('hint', params, {});
    if (outcome === null || this.quitting) return;
    const line = outcome.lines[0];
    if (line === undefined || line.pv.length === 0) {
      this.print('No hint: there is no move to play.');
    } else {
      this.print(
        `Hint: ${lineToSan(this.game.pos, line.pv.slice(0, 1), this.game.moveNumber())} (${formatScore(whiteView(uciScore(line), side))}, depth ${line.depth}; line ${lineToSan(this.game.pos, line.pv, this.game.moveNumber())})`,
      );
    }
    this.drain();
  }

  private resign(): void {
    if (this.game.end !== null) {
      this.print('The game is already over.');
      return;
    }
    const [white, black] = this.settings.players;
    let loser: number;
    if (white === 'human' && black === 'human') loser = this.game.pos.side;
    else if (white === 'human') loser = WHITE;
    else if (black === 'human') loser = BLACK;
    else {
      this.print('Only a person can resign.');
      return;
    }
    this.stopThinking();
    this.game.end = {
      result: loser === WHITE ? '0-1' : '1-0',
      text: `${Game.colorName(loser)} resigns: ${Game.colorName(loser ^ 1)} wins.`,
      termination: 'normal',
    };
    this.startTurn();
  }

  private async offerDraw(): Promise<void> {
    if (this.game.end !== null) {
      this.print('The game is already over.');
      return;
    }
    const [white, black] = this.settings.players;
    if (white === black) {
      if (white === 'engine') {
        this.print('Only a person can offer a draw.');
        return;
      }
      this.game.end = { result: '1/2-1/2', text: 'Draw agreed.', termination: 'normal' };
      this.startTurn();
      return;
    }
    const engineSide = white === 'engine' ? WHITE : BLACK;
    if (this.game.pos.side === engineSide) {
      this.print('Offer a draw on your own move.');
      return;
    }
    if (this.game.pos.fullmove < DRAW_MIN_FULLMOVE) {
      this.print(`Kestrel declines: it is early in the game (it considers draws from move ${DRAW_MIN_FULLMOVE}).`);
      return;
    }
    const outcome = await this.think('draw', { nodes: DRAW_CHECK_NODES }, {});
    if (outcome === null || this.quitting) return;
    const line = outcome.lines[0];
    // The search is from the person's side (to move): the engine's view is the opposite.
    const mine = line === undefined ? null : negate(uciScore(line));
    if (mine !== null && 'cp' in mine && mine.cp <= DRAW_ACCEPT_CP) {
      this.game.end = { result: '1/2-1/2', text: 'Draw agreed.', termination: 'normal' };
      this.startTurn();
    } else {
      const view = mine === null ? '' : ` (it sees ${formatScore(whiteView(mine, engineSide))})`;
      this.print(`Kestrel declines the draw${view}.`);
      this.drain();
    }
  }

  private setLevel(arg: string): void {
    const choice = parseLevel(arg);
    if (choice === null) {
      this.print(`level: give ${LEVEL_HELP}; now ${describeLevel(this.level)}.`);
      return;
    }
    this.level = choice;
    this.print(`Kestrel now plays at ${describeLevel(choice)}${this.thinking?.purpose === 'move' ? ', from its next move' : ''}.`);
  }

  private newGame(): void {
    this.stopThinking();
    this.game = new Game(this.settings.fen);
    this.clock?.reset();
    this.endAnnounced = false;
    void this.engine.clear();
    this.notes.push('A new game.');
    this.redraw();
    this.startTurn();
  }

  private stopThinking(): void {
    if (this.thinking === null) return;
    this.thinking.discard = true;
    this.thinking.handle.stop();
  }

  private pgn(): string {
    const name = (side: number): string => (this.settings.players[side] === 'engine' ? engineName(this.level) : 'Human');
    const tags: Array<[string, string]> = [
      ['Event', 'Kestrel play'],
      ['Site', '?'],
      ['Round', '-'],
      ['White', name(WHITE)],
      ['Black', name(BLACK)],
      ['TimeControl', this.settings.time === null ? '-' : timeControlTag(this.settings.time)],
    ];
    return this.game.toPgn(tags);
  }

  private save(path: string): void {
    if (path === '') {
      this.print('save: give a file name, for example save game.pgn');
      return;
    }
    try {
      writeFileSync(path, this.pgn());
      this.print(`Saved the game (${this.game.moves.length} plies) to ${path}.`);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      this.print(
        `save: cannot write ${path}${code === 'ENOENT' ? ': no such directory' : code === 'EACCES' ? ': permission denied' : ''}.`,
      );
    }
  }

  // ---------------------------------------------------------------------------
  // Clocks.

  private onTick(): void {
    if (this.clock === null || this.quitting || this.game.end !== null) return;
    const side = this.clock.runningSide;
    if (side !== null && this.clock.remaining(side) <= 0) {
      this.flagFall(side);
      return;
    }
    // Refresh the prompt's clocks when the text changes (about once a second, tenths at the end).
    const text = this.clocksText();
    if (text !== this.lastClockText) {
      this.lastClockText = text;
      this.showPrompt();
    }
  }

  private flagFall(side: number): void {
    this.stopThinking();
    this.clock?.pause();
    const other = side ^ 1;
    const draw = cannotMateBy(this.game.pos, other);
    this.game.end = {
      result: draw ? '1/2-1/2' : other === WHITE ? '1-0' : '0-1',
      text: draw
        ? `${Game.colorName(side)}'s time is up, but ${Game.colorName(other)} cannot mate: a draw.`
        : `${Game.colorName(side)}'s time is up: ${Game.colorName(other)} wins.`,
      termination: 'time forfeit',
    };
    this.startTurn();
  }

  // ---------------------------------------------------------------------------
  // Quitting.

  /** Stops the engine, restores the terminal and ends the session at once. */
  async quit(code: number): Promise<void> {
    if (this.quitting) return;
    this.quitting = true;
    this.stopThinking();
    if (this.tick !== null) clearInterval(this.tick);
    void this.engine.close();
    this.book?.close();
    if (this.rl !== null) {
      this.rl.setPrompt('');
      this.rl.close();
    }
    // The terminal as it was: colours reset, cursor shown, on a fresh line.
    if (this.term.interactive) this.write(`${ESC}0m${ESC}?25h\n`);
    this.resolveExit(code);
  }
}

/** A score from the side to move's view, turned to white's view. */
function whiteView(score: UciScore, side: number): UciScore {
  return side === WHITE ? score : negate(score);
}

function negate(score: UciScore): UciScore {
  return 'mate' in score ? { mate: 0 - score.mate } : { cp: 0 - score.cp };
}
