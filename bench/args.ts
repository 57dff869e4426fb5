// Command-line arguments of the benchmark scripts: `--name value` options and
// the arguments that are neither an option nor an option's value.

import { existsSync } from 'node:fs';

/** The number after `--name` in args, or fallback when absent. */
export function numberOption(args: readonly string[], name: string, fallback: number): number {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
}

/** Every value given after `--name` (a repeatable option). */
export function repeatedOption(args: readonly string[], name: string): string[] {
  return args.flatMap((a, i) => (a === name && i + 1 < args.length ? [args[i + 1]] : []));
}

/** The arguments that are neither options nor option values, in order. */
export function positionals(args: readonly string[]): string[] {
  return args.filter((a, i) => !a.startsWith('--') && (i === 0 || !args[i - 1].startsWith('--')));
}

/** Exits with a one-line message (no stack trace) when `path` does not exist; `hint` says where to get it. */
export function requireFile(path: string, hint: string): string {
  if (!existsSync(path)) {
    console.error(`${path} not found: ${hint}`);
    process.exit(2);
  }
  return path;
}
