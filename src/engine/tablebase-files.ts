// The search worker's tablebases (UCI option SyzygyPath and its kin): one
// Tablebases over the platform's files, opened once per process and read
// at offsets as probes need them. Only the main search thread probes: the
// helpers of a parallel search search without tables, and the main
// thread's root ranking decides which moves may be played (a helper's
// move outside them is never played). So one page cache (64 pages of 4 KB
// a file) and one descriptor per file probed serve the whole process.

import { platform } from '../platform/index.js';
import type { TablebaseUse } from '../syzygy/root.js';
import { type TablebaseScan, Tablebases } from '../syzygy/tablebases.js';
import { errorText } from '../util/errors.js';

/** Tablebases: the folders (SyzygyPath) and how the search uses them. */
export interface SyzygySettings {
  path: string;
  use: TablebaseUse;
}

/** The tables of `path` (folders separated as the host's PATH is), and an info string saying what was found. */
export function openTablebases(path: string): { tb: Tablebases; note: string } {
  const tb = new Tablebases({ list: (folder) => platform.listFolder(folder), open: (file) => platform.openFile(file) });
  let scan: TablebaseScan;
  try {
    scan = tb.scan(path, platform.pathListSeparator);
  } catch (e) {
    return { tb, note: `SyzygyPath: ${errorText(e)}; playing without tablebases` };
  }
  const found =
    scan.wdl === 0
      ? `no tables found in ${path}; playing without tablebases`
      : `${scan.wdl} tables (${scan.dtz} with DTZ) up to ${scan.maxPieces} pieces`;
  return { tb, note: [...scan.problems.map((p) => `SyzygyPath: ${p}`), `SyzygyPath: ${found}`].join('\n') };
}
