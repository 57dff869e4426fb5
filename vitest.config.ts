// The default 5-second limit per test is too tight for the heavier tests
// (SEE against its reference, move-generator sweeps) on a shared two-core
// machine with other work beside them: they take 3 to 5 seconds there.
// Vitest runs one test file per core less one; many files here wait on
// engine processes of their own, so two files at once even on two cores
// (npm test: 5.1 min with one, 3.3 min with two; docs/development.md).
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { testTimeout: 30_000, maxWorkers: Math.max(2, availableParallelism() - 1) },
});
