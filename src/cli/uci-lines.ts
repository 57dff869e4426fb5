// Command-line arguments as UCI lines, as OpenBench runs engines:
// `kestrel "genfens 10 seed 1 book None" quit` runs each argument as one line
// of UCI input, in order, then reads standard input as usual (so the last
// argument is usually `quit`). A `go` that ends by itself (a depth, node,
// time or clock limit; perft) finishes before the next argument runs, so
// that `kestrel "position startpos" "go depth 10" quit` searches to depth
// 10; lines typed on standard input meanwhile wait their turn. It applies
// when the first argument starts with a word of the UCI loop; `kestrel
// bench`, `kestrel perft 6` and the other subcommands are the command
// line's own.
//
// This layer also answers `genfens` (src/train/genfens.ts), on standard input
// as in arguments: the lines are written as they are found, and the lines
// after it wait until it is done.

import type { UciStream } from '../platform/index.js';
import { generateFens, parseGenfens } from '../train/genfens.js';
import { goEndsByItself } from '../uci/go-params.js';
import { UCI_COMMANDS } from '../uci/commands.js';
import { errorText } from '../util/errors.js';

/** The first words the UCI loop (src/uci/uci.ts) knows, and genfens; `kestrel help` is the command line's help. */
const UCI_WORDS = new Set([...[...UCI_COMMANDS].filter((w) => w !== 'help'), 'genfens']);

/** Whether the arguments are UCI lines: the first starts with a UCI word and is not a subcommand's name. */
export function argumentsAreUciLines(args: readonly string[], subcommands: readonly string[]): boolean {
  if (args.length === 0 || subcommands.includes(args[0])) return false;
  const first = args[0].trim().split(/\s+/)[0].toLowerCase();
  return UCI_WORDS.has(first);
}

/** Runs `genfens <args>` if the line is one, writing its lines to stream; false for any other line. */
function genfensLine(text: string, stream: UciStream): boolean {
  const tokens = text.trim().split(/\s+/);
  if (tokens[0].toLowerCase() !== 'genfens') return false;
  const write = (line: string): void => stream.write(`${line}\n`, () => {});
  const request = parseGenfens(tokens.slice(1));
  // Never `info string genfens ...`: OpenBench would read that as a position.
  if (typeof request === 'string') write(`info string error: genfens: ${request}`);
  else {
    try {
      generateFens(request, write);
    } catch (e) {
      write(`info string error: genfens: ${errorText(e)}`);
    }
  }
  return true;
}

/** The UCI stream with `lines` read first, and genfens answered here. */
export function uciStreamWith(stream: UciStream, lines: readonly string[]): UciStream {
  return {
    write: (chunk, done) => stream.write(chunk, done),
    exit: (code) => stream.exit(code),
    start: (handlers) => {
      const line = (text: string): void => {
        if (!genfensLine(text, stream)) handlers.line(text);
      };
      // Standard input waits until the arguments have run.
      let feeding = lines.length > 0;
      const waiting: string[] = [];
      let ended = false;
      stream.start({
        ...handlers,
        line: (text) => {
          if (feeding) waiting.push(text);
          else line(text);
        },
        end: () => {
          if (feeding) ended = true;
          else handlers.end();
        },
      });
      const feed = async (): Promise<void> => {
        for (const text of lines) {
          line(text);
          const tokens = text.trim().split(/\s+/);
          if (tokens[0].toLowerCase() === 'go' && goEndsByItself(tokens.slice(1))) await handlers.idle?.();
        }
        feeding = false;
        for (const text of waiting.splice(0)) line(text);
        if (ended) handlers.end();
      };
      if (feeding) void feed().catch((e: unknown) => handlers.fault(e));
    },
  };
}
