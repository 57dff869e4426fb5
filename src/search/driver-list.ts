// The search drivers (UCI option SearchDriver, the library's `driver`), one
// list: alpha-beta with principal variation search (the default) or MTD(f)
// at the root, and Monte Carlo tree search (mcts/mcts.ts) scoring its leaves
// with the network or a quiescence search, its priors from the engine's
// move ordering or uniform (the ablation). This file imports nothing: the
// library's published types include it as it is (scripts/build.mjs).

const SEARCH_DRIVER_LIST = [
  { name: 'pvs', driver: 'alpha-beta', root: 'pvs' },
  { name: 'mtdf', driver: 'alpha-beta', root: 'mtdf' },
  { name: 'mcts', driver: 'mcts', leaf: 'network', priors: 'ordering' },
  { name: 'mcts-qs', driver: 'mcts', leaf: 'quiescence', priors: 'ordering' },
  { name: 'mcts-uniform', driver: 'mcts', leaf: 'network', priors: 'uniform' },
  { name: 'mcts-qs-uniform', driver: 'mcts', leaf: 'quiescence', priors: 'uniform' },
] as const;

/** A search driver's name. */
export type SearchDriver = (typeof SEARCH_DRIVER_LIST)[number]['name'];

/** The drivers' names, in the list's order. */
export const SEARCH_DRIVERS: readonly SearchDriver[] = SEARCH_DRIVER_LIST.map((d) => d.name);

/** What the Monte Carlo drivers differ in. */
export interface MctsDriverSpec {
  /** What scores a new leaf: the network's evaluation, or a quiescence search. */
  leaf: 'network' | 'quiescence';
  /** The moves' priors: from the engine's move ordering, or all the same. */
  priors: 'ordering' | 'uniform';
}

/** The Monte Carlo driver's leaf and priors, or null for an alpha-beta driver. */
export function mctsSpec(name: SearchDriver): MctsDriverSpec | null {
  const d = SEARCH_DRIVER_LIST.find((s) => s.name === name);
  return d !== undefined && d.driver === 'mcts' ? { leaf: d.leaf, priors: d.priors } : null;
}

/** Whether a name is a driver's. */
export function isSearchDriver(name: string): name is SearchDriver {
  return (SEARCH_DRIVERS as readonly string[]).includes(name);
}
