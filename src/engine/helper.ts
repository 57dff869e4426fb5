// The body of a helper thread of a parallel search (thread-pool.ts starts
// them): it takes over the main searcher's evaluation, then searches each
// position it is sent over the shared transposition table until told to stop.
// It needs no more of the platform than its port (a helper's start must cost
// little: a search may start dozens), so Node.js runs helpers from a bundle
// of their own (scripts/build.mjs: src/cli/helper-main.ts).

import { Position } from '../board/position.js';
import { type ThreadEvaluation, useThreadEvaluation } from '../eval/index.js';
import type { GoParams, SearchOptions } from '../search/limits.js';
import { Searcher } from '../search/search.js';
import { ThreadState, type ThreadStateBuffers } from '../search/threads.js';
import { type TableMemory, TranspositionTable } from '../search/tt.js';
import { type SearchParameterValues, setSearchParameters } from '../search/tuning.js';
import type { ParentPort } from '../platform/types.js';
import { type PositionSpec, type SearchWorkerData, loadPosition } from './messages.js';
import { errorText } from '../util/errors.js';

/** Pool -> helper. */
export type ToHelper =
  | {
      type: 'go';
      state: ThreadStateBuffers;
      /** The transposition table's memory. */
      table: TableMemory;
      /** The age of the table's entries in this search (set by the main searcher). */
      generation: number;
      position: PositionSpec;
      params: GoParams;
      options: SearchOptions;
    }
  /** ucinewgame: forget the history and killer statistics. */
  | { type: 'clear' }
  /** UseNNUE or EvalFile changed: the main searcher's evaluation, which helper i takes with region i - 1. */
  | { type: 'network'; evaluation: ThreadEvaluation }
  /** Search parameters changed (a tuning build). */
  | { type: 'params'; values: SearchParameterValues };

/** Helper -> pool: something to report (printed as an info string by the search worker). */
export type FromHelper = { type: 'note'; text: string };

/** The body of a helper thread (workerData.helper is set): serves jobs until terminated. */
export function runSearchHelper(data: SearchWorkerData, port: ParentPort | null): void {
  if (data.helper === undefined || port === null) return;
  const { index } = data.helper;
  useThreadEvaluation(data.helper.evaluation, index - 1);
  if (data.params !== undefined) setSearchParameters(data.params);
  const pos = new Position();
  let searcher: Searcher | null = null;
  const noOutput = (): void => {};
  port.on('message', (m: ToHelper) => {
    if (m.type === 'clear') {
      searcher?.clearLearned();
      return;
    }
    if (m.type === 'network') {
      useThreadEvaluation(m.evaluation, index - 1);
      return;
    }
    if (m.type === 'params') {
      setSearchParameters(m.values);
      return;
    }
    const state = new ThreadState(m.state);
    // A search that has already been stopped (a helper late to start) is not begun.
    if (state.control.stopped) return;
    try {
      if (searcher === null) searcher = new Searcher(new TranspositionTable(m.table));
      else searcher.tt.attach(m.table);
      searcher.tt.generation = m.generation;
      loadPosition(pos, m.position);
      searcher.go({
        pos,
        params: m.params,
        options: m.options,
        control: state.control,
        report: noOutput,
        role: { kind: 'helper', index, state },
      });
    } catch (e) {
      port.postMessage({ type: 'note', text: `error: helper thread ${index}: ${errorText(e)}` } satisfies FromHelper);
    }
  });
  const booted = new Int32Array(data.helper.booted);
  Atomics.add(booted, 0, 1);
  Atomics.notify(booted, 0);
}
