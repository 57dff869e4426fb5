// The UCI layer's parsers by machine: `go` arguments and `setoption`
// commands, mutated from real ones or made up, never throw, and what they
// hand on is within the documented ranges.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateMoves } from '../../src/board/movegen.js';
import { moveToUci, parseUciMove } from '../../src/board/notation.js';
import { Position } from '../../src/board/position.js';
import { MAX_MOVES } from '../../src/board/types.js';
import { MAX_DEPTH, parseGo } from '../../src/uci/go-params.js';
import { OptionValues, optionLines } from '../../src/uci/options.js';
import { FUZZ_TIMEOUT, ODD_CHARS, REAL_FENS, fuzzParams, mutated, randomText } from './inputs.js';

const GO_LINES: readonly string[] = [
  'depth 1',
  'nodes 500',
  'movetime 20',
  'wtime 1000 btime 1000 winc 10 binc 10 movestogo 20',
  'wtime 300000 btime 300000 winc 2000 binc 2000',
  'depth 2 searchmoves e2e4 d2d4',
  'searchmoves e2e4 d7d5 infinite',
  'mate 2',
  'perft 3',
  'infinite',
  'ponder wtime 500 btime 500',
];
const GO_TOKENS: readonly string[] = [
  'wtime',
  'btime',
  'winc',
  'binc',
  'movestogo',
  'depth',
  'nodes',
  'mate',
  'movetime',
  'infinite',
  'ponder',
  'searchmoves',
  'perft',
  'DEPTH',
  '0',
  '-1',
  '1e9',
  '1e400',
  '-0',
  '0x10',
  '1.5',
  'NaN',
  'Infinity',
  '9007199254740993',
  'e2e4',
  'e7e8q',
  'e1g1',
  'zz',
];

const POSITION_FENS = REAL_FENS.filter((_, i) => i % 10 === 0);

/** The tokens of a line as the UCI loop splits them. */
function tokens(line: string): string[] {
  return line
    .trim()
    .split(/\s+/)
    .filter((t) => t !== '');
}

const scratch = new Int32Array(MAX_MOVES);

describe('go arguments', () => {
  it(
    'never throw, and every limit is an integer in its range',
    () => {
      const pos = new Position();
      const text = fc.oneof(
        { weight: 3, arbitrary: mutated(GO_LINES, [...'0123456789 -.e'], GO_TOKENS) },
        { weight: 1, arbitrary: randomText([...'0123456789 -.e'], GO_TOKENS) },
      );
      fc.assert(
        fc.property(fc.constantFrom(...POSITION_FENS), text, (fen, line) => {
          pos.setFen(fen);
          const legal = new Set<string>();
          const n = generateMoves(pos, scratch, 0, false);
          for (let i = 0; i < n; i++) legal.add(moveToUci(pos, scratch[i]));

          const { params, perft, messages } = parseGo(tokens(line), (t) => moveToUci(pos, parseUciMove(pos, t)));
          for (const m of messages) expect(typeof m).toBe('string');
          if (perft !== null) expect(Number.isInteger(perft) && perft >= 1 && perft <= 20).toBe(true);
          const ranges: Record<string, [number, number]> = {
            wtime: [0, 2 ** 31 - 1],
            btime: [0, 2 ** 31 - 1],
            winc: [0, 2 ** 31 - 1],
            binc: [0, 2 ** 31 - 1],
            movestogo: [1, 10000],
            depth: [1, MAX_DEPTH],
            nodes: [1, Number.MAX_SAFE_INTEGER],
            mate: [1, MAX_DEPTH],
            movetime: [0, 2 ** 31 - 1],
          };
          for (const [key, [min, max]] of Object.entries(ranges)) {
            const value = params[key as keyof typeof params] as number | undefined;
            if (value === undefined) continue;
            expect(Number.isInteger(value), `${key} ${value} from '${line}'`).toBe(true);
            expect(value >= min && value <= max, `${key} ${value} from '${line}'`).toBe(true);
          }
          for (const move of params.searchmoves) expect(legal.has(move), `searchmoves ${move} from '${line}'`).toBe(true);
          expect(new Set(params.searchmoves).size).toBe(params.searchmoves.length);
        }),
        fuzzParams(3000),
      );
    },
    FUZZ_TIMEOUT,
  );
});

/** Every option and its declared type and range, from the `uci` answer. */
const DECLARED = optionLines().map((line) => {
  const m = /^option name (.+?) type (\w+)(?: default (.*?))?(?: min (-?\d+) max (-?\d+))?((?: var \S+)*)$/.exec(line)!;
  return {
    name: m[1],
    type: m[2],
    min: m[4] === undefined ? 0 : Number(m[4]),
    max: m[5] === undefined ? 0 : Number(m[5]),
    vars: m[6]
      .split(' var ')
      .map((v) => v.trim())
      .filter((v) => v !== ''),
  };
});

const SETOPTION_LINES: readonly string[] = [
  ...DECLARED.map((d) => `name ${d.name} value ${d.type === 'spin' ? d.min : d.type === 'check' ? 'true' : (d.vars[0] ?? 'x')}`),
  'name Clear Hash',
  'name BookFile value /no/such/book.bin',
  'name EvalFile value <empty>',
];
const SETOPTION_TOKENS: readonly string[] = [
  'name',
  'value',
  'NAME',
  'Value',
  ...DECLARED.map((d) => d.name),
  'true',
  'false',
  'TRUE',
  '-5',
  '99999999999999999999',
  '+7',
  '1e3',
  '<empty>',
  '',
];

describe('setoption', () => {
  it(
    'never throws, and every value stays of its type and in its range',
    () => {
      const text = fc.oneof(
        { weight: 3, arbitrary: mutated(SETOPTION_LINES, [...'0123456789 -+', ...ODD_CHARS], SETOPTION_TOKENS) },
        { weight: 1, arbitrary: randomText([...'abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789'], SETOPTION_TOKENS) },
      );
      fc.assert(
        fc.property(fc.array(text, { minLength: 1, maxLength: 10 }), fc.nat(), (lines, seed) => {
          const options = new OptionValues();
          for (const line of lines) {
            const result = options.set(tokens(line));
            for (const m of result.messages) expect(typeof m).toBe('string');
            if (result.name === null) continue;
            const decl = DECLARED.find((d) => d.name === result.name)!;
            expect(decl, `${result.name} from '${line}'`).toBeDefined();
            const v = result.value;
            if (decl.type === 'spin') {
              expect(
                Number.isInteger(v) && (v as number) >= decl.min && (v as number) <= decl.max,
                `${decl.name} = ${v} from '${line}'`,
              ).toBe(true);
            } else if (decl.type === 'check') {
              expect(typeof v).toBe('boolean');
            } else if (decl.type === 'combo') {
              expect(decl.vars).toContain(v);
            } else if (decl.type === 'string') {
              expect(typeof v).toBe('string');
            } else {
              expect(v).toBeNull();
            }
          }
          // What the search reads from them is usable.
          expect(
            Number.isInteger(options.get('hash')) && Number.isInteger(options.get('threads')) && Number.isInteger(options.get('multiPv')),
          ).toBe(true);
          expect(() => options.strength(seed)).not.toThrow();
        }),
        fuzzParams(1500),
      );
    },
    FUZZ_TIMEOUT,
  );
});
