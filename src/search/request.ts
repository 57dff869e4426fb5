// One search as the Searcher, a Driver and a strength level are asked for
// it: the position, the `go` limits, the options, the flags that stop it,
// where it reports, and its part in a parallel search.

import type { Position } from '../board/position.js';
import type { SearchControl } from './control.js';
import type { GoParams, SearchOptions, SearchReport } from './limits.js';
import type { ThreadRole } from './threads.js';

export interface SearchRequest {
  pos: Position;
  params: GoParams;
  options: SearchOptions;
  /** Its stop and ponderhit flags. */
  control: SearchControl;
  /** Where its lines and notes go; absent: nowhere. */
  report?: SearchReport;
  /**
   * Absent for a single-threaded search. A main searcher starts its
   * helpers, stops them when it is done and may play a helper's move; its
   * lines count the nodes of all. A helper searches until its control's
   * stop flag, without reports.
   */
  role?: ThreadRole;
}
