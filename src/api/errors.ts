// The library's errors: one class per thing a caller may want to catch.

/** The base class of every error the library throws on purpose. */
export class KestrelError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** A FEN the rules refuse; `reason` says why. */
export class InvalidFenError extends KestrelError {
  constructor(
    readonly fen: string,
    readonly reason: string,
  ) {
    super(`invalid FEN '${fen}': ${reason}`);
  }
}

/** A move that is malformed or not legal in its position. */
export class IllegalMoveError extends KestrelError {
  constructor(
    readonly move: string,
    /** The position the move was read in. */
    readonly fen: string,
    readonly reason: string,
  ) {
    super(`move ${index(move)} is not legal in ${fen}: ${reason}`);
  }
}

function index(move: string): string {
  return move.length <= 20 ? `'${move}'` : `'${move.slice(0, 20)}...'`;
}

/** The engine was closed: no search can start or finish. */
export class EngineClosedError extends KestrelError {
  constructor() {
    super('the engine is closed');
  }
}

/** A search aborted (through its AbortSignal) before it started, so with no result. */
export class AbortError extends KestrelError {
  constructor() {
    super('the search was aborted before it started');
  }
}

/** The engine failed: its worker could not start, or stopped (the next search starts a new one). */
export class EngineFailedError extends KestrelError {}

/** A file that is not a Polyglot opening book (or could not be read). */
export class InvalidBookError extends KestrelError {}

/** A network file (NNUE) the engine cannot use. */
export class InvalidNetworkError extends KestrelError {}
