// Runs in every test file before its tests (vitest.config.ts, setupFiles).

import { afterAll } from 'vitest';
import { removeScratchDirs } from './scratch.js';

afterAll(removeScratchDirs);
