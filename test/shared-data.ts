// The data the tests share with the project's other tools: perft suites,
// openings and test positions in ../shared/data/, a folder next to the
// checkout (see README, Test). Reading it through here turns a missing folder
// into a message that says where the data was looked for.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The path of a file under ../shared/data/ (e.g. 'perft/perftsuite.epd'). */
export function sharedDataPath(relative: string): string {
  return fileURLToPath(new URL(`../../shared/data/${relative}`, import.meta.url));
}

/** The text of a file under ../shared/data/; a missing file fails with the path it was expected at. */
export function readSharedData(relative: string): string {
  const path = sharedDataPath(relative);
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error(`test data not found: ${path} (the tests read the shared data folder next to the checkout; see README, Test)`);
    }
    throw e;
  }
}

/** The FENs of an EPD perft suite under ../shared/data/ (the part before the first ';' of each line). */
export function suiteFens(relative: string): string[] {
  return readSharedData(relative)
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => line.split(';')[0].trim());
}
