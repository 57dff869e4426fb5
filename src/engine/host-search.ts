// A search on the engine host as a promise, for the front ends that wait
// for a search's end rather than follow its events (play, analyse): its
// exact lines kept, its notes gathered, its failure a rejection.

import { NO_MOVE_UCI } from '../board/notation.js';
import { DEFAULT_SEARCH_OPTIONS, type GoParams, type SearchOptions } from '../search/limits.js';
import type { Job, JobListener, JobRequest } from './job.js';
import type { PositionSpec } from './messages.js';
import type { EngineLine } from './search-lines.js';
import { SETTINGS } from './settings.js';

/** What host.search() settles with. */
export interface SearchOutcome {
  /** UCI notation; '0000' when there is no legal move. */
  bestMove: string;
  ponderMove: string | null;
  /** The last exact line of each multipv (index 0: the best line), if any. */
  lines: EngineLine[];
  /** The search's notes (problems). */
  notes: string[];
}

export interface SearchHandle {
  done: Promise<SearchOutcome>;
  /** Ends the search now; `done` still resolves with its move. */
  stop(): void;
}

/**
 * A search on `host` as a promise: params are the `go` limits, options
 * default to DEFAULT_SEARCH_OPTIONS with the default Move Overhead
 * (settings.ts); the clock starts when the worker is ready. Rejects when
 * the worker fails or the host is closed.
 */
export function searchAsPromise(
  host: { submit(request: JobRequest, listener: JobListener): Job },
  position: PositionSpec,
  params: Partial<GoParams>,
  options: Partial<SearchOptions>,
  onLine?: (line: EngineLine) => void,
): SearchHandle {
  const lines: EngineLine[] = [];
  const notes: string[] = [];
  let job: Job | null = null;
  const done = new Promise<SearchOutcome>((resolve, reject) => {
    job = host.submit(
      {
        kind: 'go',
        position,
        params: { infinite: false, ponder: false, searchmoves: [], ...params },
        options: { ...DEFAULT_SEARCH_OPTIONS, moveOverhead: SETTINGS.moveOverhead.default, ...options },
      },
      {
        line: (line) => {
          if (line.bound === 'exact') lines[line.multipv - 1] = line;
          onLine?.(line);
        },
        note: (text) => notes.push(text),
        done: (outcome) => {
          if (outcome.failure !== null) reject(new Error(outcome.failure));
          else
            resolve({
              bestMove: outcome.bestMove ?? NO_MOVE_UCI,
              ponderMove: outcome.ponderMove,
              lines: lines.filter((l) => l !== undefined),
              notes,
            });
        },
      },
    );
  });
  return { done, stop: () => job?.stop() };
}
