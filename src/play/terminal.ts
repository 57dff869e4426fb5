// `kestrel play` in a terminal: the view and keyboard of a game whose rules,
// clocks and engine are the game controller's (controller.ts). It draws the
// board after every change, shows the controller's messages and the engine's
// thinking, and turns typed lines into the controller's commands.
//
// Two ways to run:
//   - interactive (standard input and output are terminals): the screen is
//     redrawn after each move, the prompt shows the clocks, the engine's
//     thinking is one line that updates in place, and quit, stop and a few
//     other commands are answered at once even while it thinks; Ctrl-C
//     (and SIGINT, SIGTERM) ends the game and restores the terminal;
//   - piped (standard input is not a terminal): the board in letters with no
//     escape codes; lines are read one after the other, each when the
//     previous has been dealt with (a move waits for the engine's reply), so
//     a script plays like a person, and each is echoed after `> `; the
//     engine's thinking is printed once a move; end of input quits when a
//     person is to move.

import { type Interface, createInterface } from 'node:readline';
import { BLACK, WHITE } from '../board/types.js';
import { renderBoard } from './board-view.js';
import { formatClock } from './clock.js';
import type { GameController, ThinkingState, Waiting } from './controller.js';
import { Game } from './game.js';
import { LEVEL_HELP, describeLevel, engineName, parseLevel } from './levels.js';

export interface PlayTerminal {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream & { columns?: number };
  /** Standard input and output are terminals: redraws, prompts, keys answered at once. */
  interactive: boolean;
  /** Colours the output has (24, 8 or 4), or null for none. */
  colorDepth: number | null;
  /** Letters instead of Unicode pieces and colours. */
  ascii: boolean;
}

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

/** The commands answered at once while the engine thinks (interactive); '' shows the prompt again. */
const WHILE_THINKING = ['quit', 'exit', 'stop', 'flip', 'help', 'fen', 'pgn', 'save', 'level', ''];

export class TerminalView {
  private rl: Interface | null = null;
  /** Lines typed and not yet given to the controller. */
  private readonly queue: string[] = [];
  private inputClosed = false;
  private draining = false;
  private flipped: boolean;
  private lastClockText = '';
  private quitting = false;
  /** Lines to show under the board at the next redraw. */
  private notes: string[] = [];
  private resolveExit: (code: number) => void = () => {};

  constructor(
    private readonly controller: GameController,
    private readonly term: PlayTerminal,
  ) {
    const [white, black] = controller.settings.players;
    this.flipped = white === 'engine' && black === 'human';
    controller.subscribe({
      changed: (change) => {
        this.notes.push(...change.notes);
        if (change.ended) this.notes.push('Type save <file> to keep the game as PGN, new for another game, or quit.');
        this.redraw();
      },
      message: (lines) => this.print(...lines),
      thinking: () => this.showPrompt(),
      thought: (state) => this.thought(state),
      turn: (waiting) => this.turn(waiting),
      tick: () => this.tick(),
      failed: (text) => {
        this.print(text);
        void this.quit(1);
      },
    });
  }

  /** Plays until quit; resolves with the exit code. */
  run(): Promise<number> {
    const exited = new Promise<number>((resolve) => {
      this.resolveExit = resolve;
    });
    this.controller.warm();
    this.listen();
    this.notes.push(`${this.controller.introduction()} Type help for the commands.`);
    this.controller.start();
    return exited;
  }

  // ---------------------------------------------------------------------------
  // The controller's events.

  /** Piped: the engine's thinking is shown once, as a line of its own above its move. */
  private thought(state: ThinkingState): void {
    if (!this.term.interactive && state.line !== null && state.purpose === 'move') this.notes.push(state.text);
  }

  /** A turn begins: a person is prompted, and lines typed ahead are dealt with. */
  private turn(waiting: Waiting): void {
    if (waiting === 'person') this.showPrompt();
    this.drain();
  }

  /** The prompt's clocks are shown again when their text changes (about once a second, tenths at the end). */
  private tick(): void {
    const text = this.clocksText();
    if (text === this.lastClockText) return;
    this.lastClockText = text;
    this.showPrompt();
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

  /** The clocks as one line: "White 4:58  Black 5:00"; '' without clocks. */
  private clocksText(): string {
    const white = this.controller.timeLeft(WHITE);
    const black = this.controller.timeLeft(BLACK);
    if (white === null || black === null) return '';
    return `White ${formatClock(white)}  Black ${formatClock(black)}`;
  }

  /** The board with players, clocks and the last moves; then the notes. */
  private redraw(): void {
    const game = this.controller.game;
    const style = this.term.colorDepth !== null && !this.term.ascii ? 'color' : 'ascii';
    const last = game.lastMove;
    const board = renderBoard(game.pos, {
      style,
      colorDepth: this.term.colorDepth ?? undefined,
      flipped: this.flipped,
      lastMove: last === null ? null : { from: last.from, to: last.to },
    });
    const top = this.flipped ? WHITE : BLACK;
    const label = (side: number): string => {
      const left = this.controller.timeLeft(side);
      const clock = left === null ? '' : `  ${formatClock(left)}`;
      const turn = game.end === null && game.pos.side === side ? '  (to move)' : '';
      // The player's name, unless the colour says it all (two people); two engines by their level.
      const [white, black] = this.controller.settings.players;
      const name =
        white === black ? (white === 'engine' ? `${engineName(this.controller.level)}, ` : '') : `${this.controller.playerName(side)}, `;
      return `  ${name}${Game.colorName(side)}${clock}${turn}`;
    };
    const lines = [label(top), ...board, label(top ^ 1)];
    if (game.moves.length > 0) lines.push('', `  ${game.movesText(MOVES_SHOWN)}`);
    lines.push('', ...this.notes);
    this.notes = [];
    if (this.term.interactive) this.write(`${ESC}H${ESC}2J`);
    this.write(`${lines.join('\n')}\n`);
    this.showPrompt();
  }

  /** The prompt (interactive only): the engine's thinking, or whose move it is, after the clocks. */
  private showPrompt(): void {
    if (!this.term.interactive || this.rl === null || this.quitting) return;
    const game = this.controller.game;
    const side = game.pos.side;
    const clocks = this.clocksText();
    const thinking = this.controller.thinking;
    let text: string;
    if (thinking !== null) text = thinking.text;
    else if (game.end !== null) text = 'Game over (save <file>, new, quit)';
    else if (this.controller.isPerson(side)) {
      text = `${game.moveNumber()} ${this.controller.playerName(side) === 'You' ? 'Your move' : `${Game.colorName(side)} to move`}`;
    } else text = '';
    const full = `${clocks === '' ? '' : `[${clocks}] `}${text}> `;
    const width = (this.term.output.columns || 80) - 12;
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
    const word = line.trim().split(/\s+/)[0].toLowerCase();
    if (this.term.interactive && this.controller.thinking !== null) {
      if (WHILE_THINKING.includes(word)) this.handle(line);
      else this.print('Kestrel is thinking: wait for its move, or type stop to make it move now.');
      return;
    }
    // A stop pasted in one burst with a move comes before the engine's search begins: it is for that search
    // (unless more moves wait in the queue: then it waits with them).
    if (this.term.interactive && word === 'stop' && !this.acceptsInput() && this.queue.length === 0) {
      this.handle(line);
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
    const idle = this.controller.thinking === null && !this.quitting && this.queue.length === 0;
    if (this.inputClosed && idle && this.controller.waitsForPerson()) void this.quit(0);
  }

  /** Lines are read when nobody thinks and a person is to move (or the game is over, or only engines play). */
  private acceptsInput(): boolean {
    if (this.controller.thinking !== null || this.quitting) return false;
    return this.controller.waitsForPerson() || !this.controller.settings.players.includes('human');
  }

  /** One typed line: a command, or else a move. */
  private handle(raw: string): void {
    const line = raw.trim();
    if (!this.term.interactive) this.write(`> ${line}\n`);
    if (line === '') {
      this.showPrompt();
      return;
    }
    const [word, ...rest] = line.split(/\s+/);
    const arg = rest.join(' ');
    const controller = this.controller;
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
        controller.stop();
        return;
      case 'flip':
        this.flipped = !this.flipped;
        this.redraw();
        return;
      case 'fen':
        this.print(controller.game.pos.fen());
        return;
      case 'pgn':
        this.print(controller.pgn().trimEnd());
        return;
      case 'save':
        controller.save(arg);
        return;
      case 'level': {
        const choice = parseLevel(arg);
        if (choice === null) this.print(`level: give ${LEVEL_HELP}; now ${describeLevel(controller.level)}.`);
        else controller.setLevel(choice);
        return;
      }
      case 'new':
        controller.newGame();
        return;
      case 'undo':
      case 'takeback':
        controller.undo();
        return;
      case 'hint':
        // Lines typed after it wait for its answer.
        void controller.hint().then(() => this.drain());
        return;
      case 'resign':
        controller.resign();
        return;
      case 'draw':
        void controller.offerDraw().then(() => this.drain());
        return;
      default:
        controller.move(line);
    }
  }

  // ---------------------------------------------------------------------------
  // Quitting.

  /** Ends the game and the engine, restores the terminal and resolves run() at once. */
  private async quit(code: number): Promise<void> {
    if (this.quitting) return;
    this.quitting = true;
    this.controller.close();
    if (this.rl !== null) {
      this.rl.setPrompt('');
      this.rl.close();
    }
    // The terminal as it was: colours reset, cursor shown, on a fresh line.
    if (this.term.interactive) this.write(`${ESC}0m${ESC}?25h\n`);
    this.resolveExit(code);
  }
}
