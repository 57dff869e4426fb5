// The command line's arguments: integers and numbers within a range, and the
// files the commands read, each refused with a one-line error (no stack).

import { readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Command } from 'commander';
import { fileProblem } from '../util/errors.js';

/** An integer argument within [min, max] (absent: fallback), or exits with a one-line error. */
export function integerArg(
  program: Command,
  name: string,
  text: string | undefined,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
  fallback = min,
): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!/^-?\d+$/.test(text.trim()) || n < min || n > max) {
    const range =
      max < Number.MAX_SAFE_INTEGER
        ? `an integer from ${min} to ${max}`
        : min === 1
          ? 'a positive integer'
          : `an integer of ${min} or more`;
    program.error(`error: ${name} must be ${range}, got '${text}'`);
  }
  return n;
}

/** A number argument within [min, max], or exits with a one-line error. */
export function numberArg(program: Command, name: string, text: string, min: number, max: number): number {
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || n < min || n > max)
    program.error(`error: ${name} must be a number from ${min} to ${max}, got '${text}'`);
  return n;
}

/** A text file's contents, or exits with a one-line error naming `what` it is (default: the path). */
export function readTextFile(
  program: Command,
  path: string,
  what = path,
  decode: (bytes: Buffer) => string = (bytes) => bytes.toString('utf8'),
): string {
  try {
    return decode(readFileSync(path));
  } catch (e) {
    program.error(`error: cannot read ${what}: ${fileProblem(e)}`);
  }
}

/** Exits with a one-line error when the folder `out` is to be written in does not exist (checked before the work, not after it). */
export function requireOutputFolder(program: Command, out: string): void {
  const folder = dirname(out);
  let exists = false;
  try {
    exists = statSync(folder).isDirectory();
  } catch {
    // Missing or unreadable: said below.
  }
  if (!exists) program.error(`error: cannot write ${out}: there is no folder ${folder}`);
}
