// Unit tests of the UCI layer's pure parts (no engine process).

import { describe, expect, it } from 'vitest';
import { Position } from '../../src/board/position.js';
import { checkers, boardDiagram } from '../../src/uci/board-display.js';
import { MAX_DEPTH, parseGo } from '../../src/uci/go-params.js';
import { emergencyMove } from '../../src/engine/fallback.js';
import type { EngineLine } from '../../src/engine/search-lines.js';
import { formatEmergency, formatLine } from '../../src/uci/info.js';
import type { Maintenance } from '../../src/engine/messages.js';
import { type OptionEffects, OptionValues, optionLines } from '../../src/uci/options.js';
import { Output, type LineSink } from '../../src/uci/output.js';

const accept = (text: string): string => {
  if (!/^[a-h][1-8][a-h][1-8][nbrq]?$/.test(text)) throw new Error(`malformed move '${text}'`);
  return text;
};
const go = (line: string) =>
  parseGo(
    line.split(' ').filter((t) => t !== ''),
    accept,
  );

describe('parseGo', () => {
  it('reads every limit', () => {
    const { params, perft, messages } = go('wtime 1000 btime 2000 winc 10 binc 20 movestogo 5 depth 7 nodes 9999 mate 3 movetime 500');
    expect(messages).toEqual([]);
    expect(perft).toBe(null);
    expect(params).toEqual({
      wtime: 1000,
      btime: 2000,
      winc: 10,
      binc: 20,
      movestogo: 5,
      depth: 7,
      nodes: 9999,
      mate: 3,
      movetime: 500,
      infinite: false,
      ponder: false,
      searchmoves: [],
    });
  });

  it('reads flags and searchmoves up to the next keyword', () => {
    const { params, messages } = go('ponder searchmoves e2e4 d2d4 e2e4 zz infinite wtime 5');
    expect(params.ponder).toBe(true);
    expect(params.infinite).toBe(true);
    expect(params.searchmoves).toEqual(['e2e4', 'd2d4']);
    expect(params.wtime).toBe(5);
    expect(messages).toEqual(["searchmoves: malformed move 'zz'; ignored"]);
  });

  it('replaces nonsense with defaults and says so', () => {
    const { params, messages } = go('depth 100000 nodes 1.5e3 winc -4 movetime -1 mate x wtime');
    expect(params.depth).toBe(MAX_DEPTH);
    expect(params.nodes).toBe(1500);
    expect(params.winc).toBe(0);
    expect(params.movetime).toBe(0);
    expect(params.mate).toBeUndefined();
    expect(params.wtime).toBeUndefined();
    expect(messages).toHaveLength(5);
  });

  it('a limit below 1 becomes 1, so that the search still ends by itself', () => {
    const { params, messages } = go('depth 0 nodes -5 mate 0');
    expect([params.depth, params.nodes, params.mate]).toEqual([1, 1, 1]);
    expect(messages).toEqual(['go: depth 0 is below 1; using 1', 'go: nodes -5 is below 1; using 1', 'go: mate 0 is below 1; using 1']);
  });

  it('names the first few refused searchmoves and counts the rest', () => {
    const { params, messages } = go(`searchmoves e2e4 ${'zz '.repeat(20000)}depth 2`);
    expect(params.searchmoves).toEqual(['e2e4']);
    expect(params.depth).toBe(2);
    expect(messages).toHaveLength(6);
    expect(messages[5]).toBe('searchmoves: 19995 more refused moves ignored');
  });

  it('searchmoves with no legal move searches all moves, and says so', () => {
    const { params, messages } = go('searchmoves zz depth 3');
    expect(params.searchmoves).toEqual([]);
    expect(params.depth).toBe(3);
    expect(messages).toEqual(["searchmoves: malformed move 'zz'; ignored", 'searchmoves: no legal move given; searching all moves']);
  });

  it('a keyword is never taken as a value', () => {
    const { params, messages } = go('depth infinite');
    expect(params.infinite).toBe(true);
    expect(params.depth).toBeUndefined();
    expect(messages).toEqual(['go: depth needs a value; ignored']);
  });

  it('perft depth, with a default and a range', () => {
    expect(go('perft 4').perft).toBe(4);
    expect(go('perft').perft).toBe(1);
    expect(go('perft 0').perft).toBe(1);
    expect(go('perft 99').perft).toBe(20);
  });
});

describe('options', () => {
  it('declares the options in UCI syntax', () => {
    expect(optionLines()).toContain(
      'option name SearchDriver type combo default pvs var pvs var mtdf var mcts var mcts-qs var mcts-uniform var mcts-qs-uniform',
    );
  });

  it('matches names case-insensitively, spaces collapsed, and parses each type', () => {
    const o = new OptionValues();
    expect(o.set('name move overhead value 250'.split(' ')).messages).toEqual([]);
    expect(o.get('moveOverhead')).toBe(250);
    o.set('name UCI_CHESS960 value True'.split(' '));
    expect(o.get('chess960')).toBe(true);
    o.set('name searchdriver value MTDF'.split(' '));
    expect(o.get('driver')).toBe('mtdf');
    o.set('name SearchDriver value mcts-QS-uniform'.split(' '));
    expect(o.get('driver')).toBe('mcts-qs-uniform');
    expect(o.set('name Clear Hash'.split(' ')).name).toBe('Clear Hash');
  });

  it('clamps spins, keeps the old value on garbage', () => {
    const o = new OptionValues();
    expect(o.set('name Hash value 1000000'.split(' ')).value).toBe(131072);
    expect(o.get('hash')).toBe(131072);
    expect(o.set('name Hash value lots'.split(' ')).name).toBe(null);
    expect(o.get('hash')).toBe(131072);
    expect(o.set('name MultiPV value -3'.split(' ')).value).toBe(1);
  });

  it('reads an option kept elsewhere (the engine host) through its keeper, whom its effect sets', () => {
    const kept = { hash: 16, syzygy: { path: '', use: { probeDepth: 1, rule50: true, probeLimit: 7 } } };
    const o = new OptionValues({
      hash: () => kept.hash,
      syzygyPath: () => kept.syzygy.path,
      syzygyProbeDepth: () => kept.syzygy.use.probeDepth,
    });
    const effects = {
      configure: (change: Maintenance) => {
        if (change.type === 'hash') kept.hash = change.mb;
        if (change.type === 'syzygy') kept.syzygy = change.settings;
      },
    } as OptionEffects;
    expect(o.get('hash')).toBe(16);
    const set = o.set('name Hash value 64'.split(' '));
    expect(set.value).toBe(64);
    expect(o.get('hash')).toBe(16); // not stored here: the effect gives it to the keeper
    o.apply(set, effects);
    expect(kept.hash).toBe(64);
    expect(o.get('hash')).toBe(64);
    expect(o.set('name Hash value lots'.split(' ')).messages).toEqual(["option Hash: 'lots' is not an integer; kept 64"]);
    // A tablebase option changes its one setting of the keeper's.
    o.apply(o.set('name SyzygyPath value /tb'.split(' ')), effects);
    o.apply(o.set('name SyzygyProbeDepth value 5'.split(' ')), effects);
    expect(kept.syzygy).toEqual({ path: '/tb', use: { probeDepth: 5, rule50: true, probeLimit: 7 } });
    expect(o.syzygy).toEqual(kept.syzygy);
  });
});

describe('formatLine', () => {
  const line: EngineLine = {
    depth: 7,
    seldepth: 11,
    multipv: 1,
    score: 35,
    bound: 'exact',
    nodes: 12000,
    timeMs: 40,
    hashfull: 3,
    tbhits: null,
    pv: ['e2e4', 'e7e5'],
    pvSan: [],
  };
  it('writes a line as UCI info text', () => {
    expect(formatLine(line, false)).toBe(
      'info depth 7 seldepth 11 multipv 1 score cp 35 nodes 12000 nps 300000 hashfull 3 time 40 pv e2e4 e7e5',
    );
    expect(formatLine({ ...line, bound: 'lower', hashfull: null, pv: [] }, true)).toBe(
      'info depth 7 seldepth 11 multipv 1 score cp 35 lowerbound nodes 12000 nps 300000 time 40',
    );
    expect(formatLine({ ...line, score: 29997 }, true)).toMatch(/ score mate 2 wdl 1000 0 0 /);
  });
});

describe('Output', () => {
  it('keeps order, flattens line breaks and flushes', async () => {
    const written: string[] = [];
    const callbacks: Array<() => void> = [];
    const sink: LineSink = {
      write(chunk, cb) {
        written.push(chunk);
        callbacks.push(() => cb(null));
        return true;
      },
    };
    const out = new Output(sink);
    out.write('a\nb');
    out.writeLines(['c', 'd']);
    out.info('x'.repeat(400));
    let flushed = false;
    const done = out.flush().then(() => (flushed = true));
    await Promise.resolve();
    expect(flushed).toBe(false);
    for (const cb of callbacks) cb();
    await done;
    expect(written[0]).toBe('a b\n');
    expect(written[1]).toBe('c\nd\n');
    expect(written[2].length).toBe('info string '.length + 303 + 1);
  });
});

describe('d', () => {
  it('finds checkers', () => {
    expect(checkers(new Position('4k3/8/8/8/8/5n2/8/R3K2q w Q - 0 1'))).toEqual([7, 21]);
    expect(checkers(new Position('4k3/8/8/8/8/8/3p4/4K3 w - - 0 1'))).toEqual([11]);
    expect(checkers(new Position('4k3/8/8/8/1b6/8/3P4/4K3 w - - 0 1'))).toEqual([]);
    const lines = boardDiagram(new Position());
    expect(lines).toContain(' | R | N | B | Q | K | B | N | R | 1');
  });
});

describe('emergencyMove', () => {
  it('takes a mate in one, or a free queen, and respects the allowed list', () => {
    const mate = { fen: '6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1', moves: [], chess960: false };
    expect(emergencyMove(mate, ['a1a2', 'a1a8', 'g1f1']).move).toBe('a1a8');
    expect(emergencyMove(mate, ['a1a2', 'g1f1']).move).not.toBe('a1a8');
    const queen = { fen: '4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1', moves: [], chess960: false };
    expect(emergencyMove(queen, ['d2d1', 'd2d5', 'e1f1']).move).toBe('d2d5');
    expect(emergencyMove(queen, []).move).toBe('0000');
  });

  it('reports its choice as an info line with a score and a one-move pv', () => {
    const mate = { fen: '6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1', moves: [], chess960: false };
    expect(formatEmergency(emergencyMove(mate, ['a1a2', 'a1a8']))).toBe('info depth 2 score mate 1 pv a1a8');
    const queen = { fen: '4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1', moves: [], chess960: false };
    expect(formatEmergency(emergencyMove(queen, ['d2d5']))).toMatch(/^info depth 2 score cp \d+ pv d2d5$/);
    expect(formatEmergency({ move: '0000', score: null })).toBeNull();
  });
});
