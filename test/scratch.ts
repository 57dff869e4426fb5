// Temporary folders for tests. Each is removed when its test file ends
// (test/setup.ts), whether its tests pass or fail, so a run of the suite
// leaves no folders behind.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

/**
 * A new empty folder named `prefix` plus a random suffix in the system's temporary folder.
 * A file whose tests are all skipped runs no hooks, so such a file makes its folders only when its tests will run.
 */
export function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Removes every folder scratchDir has made in this test file. */
export function removeScratchDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}
