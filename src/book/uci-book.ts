// The opening book as the UCI layer sees it: the four options (OwnBook,
// BookFile, BookMode, BookDepth) and one call per `go` that either gives a
// book move with the lines to print before `bestmove`, or nothing (search).
// Every problem (missing file, damaged book, illegal entry) becomes an
// `info string` line; none stops the engine.

import { moveToUci } from '../board/notation.js';
import type { Position } from '../board/position.js';
import { bookMoveInfoLines } from './format.js';
import { platform } from '../platform/index.js';
import { BOOK_MODES, BookError, type BookMode, OpeningBook, gamePly, pickEntry } from './reader.js';
import { errorText } from '../util/errors.js';

/**
 * The book options' defaults, which a BookController starts with, and
 * BookDepth's range (engine/settings.ts declares the options with them;
 * BookFile's default is the shipped book).
 */
export const BOOK_OPTION_DEFAULTS = {
  OwnBook: false,
  BookMode: 'weighted' as BookMode,
  BookDepth: 255,
  BookDepthMin: 0,
  BookDepthMax: 1024,
};

export interface BookPick {
  /** The book move, or 0: search as usual. */
  move: number;
  /** Lines to print, in order, before `bestmove` (info strings; with a move, its announcement). */
  lines: string[];
}

export class BookController {
  private enabled = BOOK_OPTION_DEFAULTS.OwnBook;
  private file = '';
  private mode: BookMode = BOOK_OPTION_DEFAULTS.BookMode;
  private depth = BOOK_OPTION_DEFAULTS.BookDepth;
  private random: () => number = Math.random;
  private book: OpeningBook | null = null;
  /** The file the current book (or the last failure) belongs to; null = not tried yet. */
  private triedFile: string | null = null;

  /** The book file in use: the BookFile value, or the shipped book when that is empty. */
  get path(): string {
    return this.file === '' ? platform.shippedBook().name : this.file;
  }

  setOwnBook(on: boolean): void {
    this.enabled = on;
  }

  /** BookFile; the file is opened (again, if it is the same name: it may have been rebuilt) at the next pick, and problems reported then. */
  setFile(path: string): void {
    this.file = path.trim();
    this.triedFile = null;
  }

  /** BookMode: 'best' or 'weighted' (anything else is ignored and false returned). */
  setMode(mode: string): boolean {
    const m = mode.toLowerCase() as BookMode;
    if (!BOOK_MODES.includes(m)) return false;
    this.mode = m;
    return true;
  }

  /** BookDepth: the book is consulted for the first `plies` plies of the game (0: never). */
  setDepth(plies: number): void {
    this.depth = Math.max(0, Math.floor(plies));
  }

  /** The random source of `weighted` (tests pass a seeded one, util/random.ts). */
  setRandom(random: () => number): void {
    this.random = random;
  }

  /**
   * Call on `go` (not for `go infinite` or `go ponder`): a book move for pos
   * and the lines to print before `bestmove <uci>`, or move 0 (with maybe
   * some info strings to print) when the engine should search. With
   * searchMoves (from `go searchmoves`, as moves or UCI text), only those
   * moves are considered. pos.chess960 decides how castling is written.
   */
  pick(pos: Position, searchMoves?: readonly (number | string)[]): BookPick {
    const lines: string[] = [];
    if (!this.enabled || gamePly(pos) >= this.depth) return { move: 0, lines };
    const book = this.open(lines);
    if (book === null) return { move: 0, lines };
    const { entries, warnings } = book.probe(pos);
    for (const w of warnings) lines.push(`info string ${w}`);
    const allowed =
      searchMoves === undefined || searchMoves.length === 0
        ? entries
        : entries.filter((e) => searchMoves.includes(e.move) || searchMoves.includes(moveToUci(pos, e.move)));
    const choice = pickEntry(allowed, this.mode, this.random);
    if (choice === null) return { move: 0, lines };
    lines.push(...bookMoveInfoLines(pos, choice));
    return { move: choice.move, lines };
  }

  /** pick() with the move also as UCI text ('' when none). */
  pickUci(pos: Position, searchMoves?: readonly (number | string)[]): BookPick & { uci: string } {
    const r = this.pick(pos, searchMoves);
    return { ...r, uci: r.move === 0 ? '' : moveToUci(pos, r.move) };
  }

  /** Closes the book file (on quit). */
  close(): void {
    this.book?.close();
    this.book = null;
    this.triedFile = null;
  }

  /** The open book for the current BookFile; a failure is reported once per file name. */
  private open(lines: string[]): OpeningBook | null {
    const path = this.path;
    if (this.triedFile === path) return this.book;
    this.book?.close();
    this.book = null;
    this.triedFile = path;
    try {
      const shipped = platform.shippedBook();
      this.book = shipped.embedded && path === shipped.name ? OpeningBook.fromBytes(embeddedBytes(shipped), path) : OpeningBook.open(path);
    } catch (e) {
      if (!(e instanceof BookError)) throw e;
      lines.push(`info string ${e.message}; playing without a book`);
    }
    return this.book;
  }
}

/** An embedded book's bytes; a failure (a browser could not fetch it) is a BookError. */
function embeddedBytes(shipped: { name: string; bytes(): Uint8Array }): Uint8Array {
  try {
    return shipped.bytes();
  } catch (e) {
    throw new BookError(`cannot read book ${shipped.name}: ${errorText(e)}`);
  }
}
