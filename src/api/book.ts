// Opening books for the library: the shipped book or any Polyglot file,
// probed synchronously once loaded.

import { moveToUci } from '../board/notation.js';
import { moveToSan } from '../board/san.js';
import { platform } from '../platform/index.js';
import { BookError, OpeningBook, pickEntry } from '../book/reader.js';
import { InvalidBookError } from './errors.js';
import { readPosition } from './position.js';
import type { Move, PositionInput } from './types.js';
import { errorText } from '../util/errors.js';

/** A move of the book for a position. */
export interface BookMove extends Move {
  /** The Polyglot weight. */
  weight: number;
  /** This move's share of the position's total weight, 0..1. */
  share: number;
}

export class Book {
  private constructor(private readonly book: OpeningBook) {}

  /** A book from a Polyglot file's bytes; throws InvalidBookError. */
  static fromBytes(bytes: Uint8Array | ArrayBuffer, name = 'book'): Book {
    const data = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
    try {
      return new Book(OpeningBook.fromBytes(data, name));
    } catch (e) {
      if (e instanceof BookError) throw new InvalidBookError(e.message);
      throw e;
    }
  }

  /**
   * Loads a book: the one shipped with the engine (no argument), or a
   * Polyglot file (a path in Node, a URL in a browser); rejects with InvalidBookError.
   */
  static async load(source?: string | URL): Promise<Book> {
    let bytes: Uint8Array;
    const name = source === undefined ? 'the shipped book' : String(source);
    try {
      bytes = source === undefined ? await platform.shippedBook().load() : await platform.loadFile(String(source));
    } catch (e) {
      throw new InvalidBookError(`cannot read ${name}: ${errorText(e)}`);
    }
    return Book.fromBytes(bytes, name);
  }

  /**
   * The shipped book, read at once: in Node.js (and the single executable);
   * a browser page must load it without blocking, with Book.load().
   */
  static shipped(): Book {
    shippedBook ??= Book.fromBytes(readShipped(), 'the shipped book');
    return shippedBook;
  }

  /** Number of entries. */
  get size(): number {
    return this.book.size;
  }

  /** The book's moves for a position (legal ones only), in the file's order. */
  moves(position: PositionInput, options: { chess960?: boolean } = {}): BookMove[] {
    const { pos } = readPosition(position, options.chess960 ?? false);
    const { entries } = this.book.probe(pos);
    const total = entries.reduce((sum, e) => sum + e.weight, 0);
    return entries.map((e) => ({
      uci: moveToUci(pos, e.move),
      san: moveToSan(pos, e.move),
      weight: e.weight,
      share: total === 0 ? 0 : e.weight / total,
    }));
  }

  /**
   * A move to play: at random in proportion to the weights ('weighted', the
   * default) or the heaviest ('best'), among the moves `only` names (UCI)
   * if given; null when out of book.
   */
  pick(
    position: PositionInput,
    options: { mode?: 'weighted' | 'best'; random?: () => number; chess960?: boolean; only?: readonly string[] } = {},
  ): Move | null {
    const { pos } = readPosition(position, options.chess960 ?? false);
    const only = options.only;
    const entries = this.book.probe(pos).entries.filter((e) => only === undefined || only.includes(moveToUci(pos, e.move)));
    const choice = pickEntry(entries, options.mode ?? 'weighted', options.random ?? Math.random);
    return choice === null ? null : { uci: moveToUci(pos, choice.move), san: moveToSan(pos, choice.move) };
  }
}

let shippedBook: Book | null = null;

function readShipped(): Uint8Array {
  try {
    return platform.shippedBook().bytes();
  } catch (e) {
    throw new InvalidBookError(`cannot read the shipped book here (${errorText(e)}); use await Book.load()`);
  }
}

/** The book moves of a position: of `book`, or of the shipped book (Node.js; in a browser pass a book from Book.load()). */
export function bookMoves(position: PositionInput, options: { book?: Book; chess960?: boolean } = {}): BookMove[] {
  return (options.book ?? Book.shipped()).moves(position, { chess960: options.chess960 });
}
