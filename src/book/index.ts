// Opening books in Polyglot format: reading (reader.ts), building (builder.ts),
// text output (format.ts), the UCI options' logic (uci-book.ts) and the
// `kestrel book` commands (cli.ts).

export {
  BookBuilder,
  type BuildHooks,
  type BuildOptions,
  type BuildStats,
  DEFAULT_BUILD_OPTIONS,
  buildBookFromPgnFiles,
  buildBookFromPgnText,
} from './builder.js';
export { registerBookCommands } from './cli.js';
export { bookMoveInfoLines, formatProbeTable, probeRows } from './format.js';
export { shippedBookPath } from './paths.js';
export { decodeMove, decodeMoveIn, encodeMove } from './polyglot.js';
export {
  BOOK_MODES,
  type BookChoice,
  type BookEntry,
  BookError,
  type BookMode,
  type BookProbe,
  OpeningBook,
  gamePly,
  pickEntry,
  seededRandom,
} from './reader.js';
export { BOOK_OPTION_DEFAULTS, type BookPick, BookController } from './uci-book.js';
