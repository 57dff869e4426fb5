// The default 5-second limit per test is too tight for the heavier tests
// (SEE against its reference, move-generator sweeps) on a shared two-core
// machine with other work beside them: they take 3 to 5 seconds there.
// test/setup.ts removes each test file's temporary folders when it ends.
import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { testTimeout: 30_000, setupFiles: ['test/setup.ts'] } });
