// The library (kestrel-chess) as a user gets it: the built Node.js bundle
// dist/node/index.js (made by `npm run build`), with the types of its sources.

import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchDir } from '../scratch.js';
import { ROOT } from '../uci/engine-process.js';

type Api = typeof import('../../src/api/index.js');
const BUNDLE = join(ROOT, 'dist', 'node', 'index.js');

let api: Api;
let engine: InstanceType<Api['Engine']>;

const MATE_IN_ONE = '6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1';

beforeAll(async () => {
  if (!existsSync(BUNDLE)) throw new Error(`${BUNDLE} is missing: run npm run build first`);
  api = (await import(BUNDLE)) as Api;
  engine = new api.Engine();
}, 60000);

afterAll(async () => {
  await engine?.close();
});

describe('helpers', () => {
  it('list legal moves in UCI and SAN', () => {
    const moves = api.legalMoves('startpos');
    expect(moves).toHaveLength(20);
    expect(moves).toContainEqual({ uci: 'g1f3', san: 'Nf3' });
    expect(api.legalMoves({ moves: ['e4', 'e7e5', 'Nf3', 'Nc6', 'Bc4', 'Nf6', 'Ng5', 'd5', 'exd5', 'Nxd5', 'Nxf7'] })).toContainEqual({
      uci: 'e8f7',
      san: 'Kxf7',
    });
    expect(api.legalMoves({ fen: MATE_IN_ONE, moves: ['Rd8'] })).toEqual([]);
  });

  it('validate FENs with the reason', () => {
    expect(api.validateFen(api.START_FEN)).toEqual({ valid: true, fen: api.START_FEN });
    const bad = api.validateFen('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1');
    expect(bad.valid).toBe(false);
    if (!bad.valid) expect(bad.reason).toMatch(/side/i);
    expect(api.validateFen('8/8/8/8/8/8/8/8 w - - 0 1').valid).toBe(false);
  });

  it('count perft, evaluate, and tell how a game stands', () => {
    expect(api.perft('startpos', 3)).toBe(8902);
    expect(api.perft('r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1', 2)).toBe(2039);
    // A queen up is a lot, from the side to move's view either way.
    expect(api.evaluate('rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1')).toBeGreaterThan(600);
    expect(api.evaluate('rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1')).toBeLessThan(-600);
    expect(api.gameStatus({ moves: ['f3', 'e5', 'g4', 'Qh4'] })).toMatchObject({
      turn: 'white',
      inCheck: true,
      outcome: { result: '0-1', reason: 'checkmate' },
    });
    expect(api.gameStatus('startpos').outcome).toBeNull();
  });

  it('read the shipped book', async () => {
    const book = await api.Book.load();
    const moves = book.moves({ moves: ['d4', 'Nf6', 'c4'] });
    expect(moves[0]).toMatchObject({ uci: 'e7e6', san: 'e6' });
    expect(moves.reduce((sum, m) => sum + m.share, 0)).toBeCloseTo(1);
    expect(book.moves({ moves: ['a3', 'h6', 'h3', 'a6'] })).toEqual([]);
    expect(() => api.Book.fromBytes(new Uint8Array(15))).toThrow(api.InvalidBookError);
    // At once, without loading: the shipped book (Node.js), or a book given.
    expect(api.bookMoves({ moves: ['d4', 'Nf6', 'c4'] })).toEqual(moves);
    expect(api.bookMoves('startpos', { book })).toEqual(book.moves('startpos'));
    // A file: URL, as the type allows.
    const byUrl = await api.Book.load(pathToFileURL(join(ROOT, 'books', 'kestrel.bin')));
    expect(byUrl.size).toBe(book.size);
  });

  it('read games longer than the undo stack', () => {
    // Found by reading for test/fuzz: past 8192 plies the position's undo
    // stack was full, inCheck() read nothing, and a mate at ply 8404 was
    // called stalemate.
    const shuffle = Array.from({ length: 2100 }, () => ['g1f3', 'g8f6', 'f3g1', 'f6g8']).flat();
    const mated = api.gameStatus({ moves: [...shuffle, 'f3', 'e5', 'g4', 'Qh4'] });
    expect(mated).toMatchObject({ turn: 'white', inCheck: true, outcome: { result: '0-1', reason: 'checkmate' } });
    expect(mated.fen).toBe('rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 4203');
    // Repetitions still count after an irreversible move late in a long game.
    const late = [...shuffle, 'e4', 'e5', ...shuffle.slice(0, 8)];
    expect(api.gameStatus({ moves: late }).outcome).toEqual({ result: '1/2-1/2', reason: 'threefold repetition' });
    expect(api.legalMoves({ moves: [...shuffle, 'e4', 'e5', 'Qh5', 'Nc6', 'Bc4', 'Nf6', 'Qxf7'] })).toEqual([]);
  });

  it('throw typed errors for a bad position', () => {
    expect(() => api.legalMoves(42 as never)).toThrow(/a position must be a FEN string, 'startpos' or \{ fen\?, moves\? \}, not number/);
    expect(() => api.legalMoves(['e4'] as never)).toThrow(TypeError);
    // A variable that failed to load is not the start position.
    expect(() => api.legalMoves(undefined as never)).toThrow(/not undefined/);
    expect(() => api.legalMoves(null as never)).toThrow(/not null/);
    // More queens than promotions could give (263 legal moves, past every move list's size).
    expect(() => api.legalMoves('knQQQQQB/ppQ4Q/QQ5Q/Q6Q/Q6Q/Q6Q/Q6Q/BQQQQQQK w - - 0 1')).toThrow(api.InvalidFenError);
    expect(() => api.legalMoves('not a fen')).toThrow(api.InvalidFenError);
    expect(() => api.legalMoves({ moves: ['e2e5'] })).toThrow(api.IllegalMoveError);
    try {
      api.legalMoves({ moves: ['e4', 'e5', 'Ke3', 'Nc6'] });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(api.IllegalMoveError);
      expect(e).toBeInstanceOf(api.KestrelError);
      expect((e as InstanceType<Api['IllegalMoveError']>).move).toBe('Ke3');
    }
  });
});

describe('Engine', () => {
  it('analyses a position: best move, score, WDL, depth, lines in both notations', async () => {
    const depths: number[] = [];
    const r = await engine.analyse({ moves: ['e4'] }, { depth: 6 }, { onInfo: (line) => depths.push(line.depth) });
    const legal = api.legalMoves({ moves: ['e4'] }).map((m) => m.uci);
    expect(legal).toContain(r.bestMove?.uci);
    expect(r.bestMove?.san).toBe(api.legalMoves({ moves: ['e4'] }).find((m) => m.uci === r.bestMove?.uci)?.san);
    expect(r.depth).toBe(6);
    expect(r.score.type).toBe('cp');
    expect(r.wdl.win + r.wdl.draw + r.wdl.loss).toBe(1000);
    expect(r.pv.length).toBeGreaterThan(0);
    expect(r.pvSan).toHaveLength(r.pv.length);
    expect(r.pv[0]).toBe(r.bestMove?.uci);
    expect(r.nodes).toBeGreaterThan(0);
    expect(r.stopped).toBe(false);
    expect(depths.at(-1)).toBe(6);
    expect([...depths].sort((a, b) => a - b)).toEqual(depths);
  });

  it('finds a mate and gives it as a mate score', async () => {
    const best = await engine.bestMove(MATE_IN_ONE, { depth: 4 });
    expect(best).toMatchObject({ uci: 'd1d8', san: 'Rd8#', fromBook: false });
    expect(best?.analysis?.score).toEqual({ type: 'mate', value: 1 });
    expect(await engine.bestMove({ fen: MATE_IN_ONE, moves: ['Rd8'] }, { depth: 2 })).toBeNull();
  });

  it('reports several lines with multiPv', async () => {
    const r = await engine.analyse('startpos', { depth: 5 }, { multiPv: 3 });
    expect(r.lines.map((l) => l.multiPv)).toEqual([1, 2, 3]);
    expect(new Set(r.lines.map((l) => l.pv[0])).size).toBe(3);
    expect(r.lines[0].pv[0]).toBe(r.bestMove?.uci);
  });

  it('stops through an AbortSignal and answers with what it found', async () => {
    const controller = new AbortController();
    const r = await engine.analyse(
      'startpos',
      { infinite: true },
      { signal: controller.signal, onInfo: (line) => line.depth >= 4 && controller.abort() },
    );
    expect(r.stopped).toBe(true);
    expect(r.depth).toBeGreaterThanOrEqual(4);
    expect(api.legalMoves('startpos').map((m) => m.uci)).toContain(r.bestMove?.uci);
    // A signal aborted before the call: nothing starts.
    await expect(engine.analyse('startpos', { depth: 3 }, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(api.AbortError);
  });

  it('a stopped search answers with one consistent line: ponder is pv[1], each root move once', async () => {
    for (let i = 0; i < 8; i++) {
      const r = await engine.analyse('startpos', { infinite: true }, { multiPv: 3, signal: AbortSignal.timeout(40 + 15 * i) });
      expect(r.pv[0]).toBe(r.bestMove?.uci);
      if (r.ponder !== null) expect(r.pv[1]).toBe(r.ponder.uci);
      expect(new Set(r.lines.map((l) => l.pv[0])).size).toBe(r.lines.length);
    }
  });

  it('gives its lines as an async iterator; leaving the loop stops the search', async () => {
    const search = engine.search('startpos', { depth: 60 });
    const seen: number[] = [];
    for await (const line of search) {
      seen.push(line.depth);
      if (line.depth >= 5) break;
    }
    const r = await search.result;
    expect(seen.at(-1)).toBe(5);
    expect(r.stopped).toBe(true);
    expect(r.bestMove).not.toBeNull();
  });

  it('queues a search asked for while one runs, and drops a queued one that is aborted', async () => {
    const order: string[] = [];
    const controller = new AbortController();
    const first = engine.analyse(
      'startpos',
      { depth: 60 },
      { signal: controller.signal, onInfo: (l) => l.depth >= 3 && controller.abort() },
    );
    const dropped = new AbortController();
    const second = engine.analyse('startpos', { depth: 2 }, { signal: dropped.signal });
    const third = engine.analyse({ moves: ['d4'] }, { depth: 3 }, { onInfo: () => order.push('third') });
    dropped.abort();
    void first.then(() => order.push('first done'));
    await expect(second).rejects.toBeInstanceOf(api.AbortError);
    const [r1, r3] = await Promise.all([first, third]);
    expect(r1.stopped).toBe(true);
    expect(r3.depth).toBe(3);
    expect(order[0]).toBe('first done');
    expect(order.slice(1).every((o) => o === 'third')).toBe(true);
  });

  it('searches with the driver asked for: Monte Carlo tree search counts playouts as nodes', async () => {
    const mcts = new api.Engine({ driver: 'mcts' });
    try {
      expect(mcts.driver).toBe('mcts');
      const best = await mcts.bestMove(MATE_IN_ONE, { nodes: 500 });
      expect(best).toMatchObject({ uci: 'd1d8', fromBook: false });
      expect(best?.analysis?.score).toEqual({ type: 'mate', value: 1 });
      const r = await mcts.analyse('startpos', { nodes: 300 }, { multiPv: 2 });
      expect(r.lines.map((l) => l.multiPv)).toEqual([1, 2]);
      expect(r.lines[0].nodes).toBe(300);
      expect(api.legalMoves('startpos').map((m) => m.uci)).toContain(r.bestMove?.uci);
    } finally {
      await mcts.close();
    }
    expect(engine.driver).toBe('pvs');
    expect(() => new api.Engine({ driver: 'alphabeta' as never })).toThrow(RangeError);
  });

  it('rejects bad input with typed errors, and keeps working', async () => {
    await expect(engine.analyse('8/8/8 w - - 0 1', { depth: 2 })).rejects.toBeInstanceOf(api.InvalidFenError);
    await expect(engine.analyse({ moves: ['e4', 'e4'] }, { depth: 2 })).rejects.toBeInstanceOf(api.IllegalMoveError);
    await expect(engine.analyse('startpos', {})).rejects.toBeInstanceOf(TypeError);
    await expect(engine.analyse('startpos', { depth: 2 }, { multiPv: 0 })).rejects.toBeInstanceOf(RangeError);
    await expect(engine.analyse('startpos', { depth: -1 })).rejects.toBeInstanceOf(RangeError);
    // The iterator of a search that could not start throws its reason.
    await expect(
      (async () => {
        for await (const _ of engine.search('bad', { depth: 1 })) void _;
      })(),
    ).rejects.toBeInstanceOf(api.InvalidFenError);
    const r = await engine.analyse('startpos', { depth: 2, searchMoves: ['a3', 'h2h3'] });
    expect(['a2a3', 'h2h3']).toContain(r.bestMove?.uci);
    // A clock for the side not to move is no limit.
    await expect(engine.analyse({ moves: ['e4'] }, { wtime: 1000 })).rejects.toThrow(/no clock for Black \(btime\)/);
    expect(() => new api.Engine({ onLog: 5 as never })).toThrow(TypeError);
    expect(() => new api.Engine({ book: '/no/such/book.bin' as never })).toThrow(TypeError);
  });

  it('says what a limit or option of the wrong kind must be', async () => {
    const bad = (limits: unknown, options: unknown = {}) => engine.analyse('startpos', limits as never, options as never);
    await expect(bad({ depth: 3, searchMoves: 'e2e4' })).rejects.toThrow(
      new TypeError("searchMoves must be an array of moves as UCI or SAN strings, such as ['e2e4', 'Nf3'], not 'e2e4'"),
    );
    await expect(bad({ depth: 3, searchMoves: { 0: 'e2e4' } })).rejects.toThrow(/^searchMoves must be an array .*, not an object$/);
    await expect(bad({ depth: 3, searchMoves: ['e2e4', 42] })).rejects.toThrow(
      new TypeError("searchMoves[1] must be a move as a UCI or SAN string, such as 'e2e4', not 42"),
    );
    await expect(bad({ depth: 3, searchMoves: ['e2e5'] })).rejects.toBeInstanceOf(api.IllegalMoveError);
    // A string that looks like a number is shown quoted.
    await expect(bad({ depth: '3' })).rejects.toThrow(new RangeError("depth must be an integer > 0, not '3'"));
    await expect(bad({ wtime: '100', btime: 100 })).rejects.toThrow(new RangeError("wtime must be a number >= 0, not '100'"));
    await expect(bad({ depth: 3 }, { multiPv: '2' })).rejects.toThrow(/^multiPv must be an integer in 1\.\.\d+, not '2'$/);
    await expect(bad({ depth: 3, infinite: 'yes' })).rejects.toThrow(new TypeError("infinite must be true or false, not 'yes'"));
    await expect(bad({ depth: 3 }, { signal: true })).rejects.toThrow(
      new TypeError('signal must be an AbortSignal (from an AbortController), not true'),
    );
    const r = await engine.analyse('startpos', { depth: 2, searchMoves: ['Nf3'] });
    expect(r.bestMove?.uci).toBe('g1f3');
  });

  it('never leaves an unhandled rejection: bestMove() unawaited when the engine closes, onLog that throws', () => {
    const script = `import(${JSON.stringify(BUNDLE)}).then(async ({ Engine }) => {
      const engine = new Engine({ onLog: () => { throw new Error('onLog'); } });
      await engine.analyse('startpos', { depth: 3 }, { onInfo: () => { throw new Error('onInfo'); } });
      const move = engine.bestMove('startpos', { movetime: 300 });
      const bad = engine.bestMove('not a fen', { depth: 1 });
      await engine.close();
      console.log('closed', await move.catch((e) => e.name), await bad.catch((e) => e.name));
    });`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30000 });
    expect(r.stdout.trim()).toBe('closed EngineClosedError InvalidFenError');
    expect(r.status).toBe(0);
  });

  it('plays from the book when asked, and Chess960 castling king-takes-rook', async () => {
    const withBook = new api.Engine({ book: true });
    try {
      const move = await withBook.bestMove('startpos', { depth: 2 });
      expect(move?.fromBook).toBe(true);
      expect(api.legalMoves('startpos').map((m) => m.uci)).toContain(move?.uci);
      // searchMoves picks among those book moves; the limits are checked in the book too.
      const e4 = await withBook.bestMove('startpos', { depth: 2, searchMoves: ['e4'] });
      expect([e4?.uci, e4?.fromBook]).toEqual(['e2e4', true]);
      await expect(withBook.bestMove('startpos', {})).rejects.toBeInstanceOf(TypeError);
      const aborted = new AbortController();
      aborted.abort();
      await expect(withBook.bestMove('startpos', { depth: 2 }, { signal: aborted.signal })).rejects.toBeInstanceOf(api.AbortError);
      // Out of the book, its search keeps its place in the queue.
      const order: string[] = [];
      const first = withBook.bestMove('4k3/8/8/8/8/8/8/R3K3 w - - 0 1', { depth: 4 }, { onInfo: () => order.push('bestMove') });
      const second = withBook.analyse('startpos', { depth: 4 }, { onInfo: () => order.push('analyse') });
      await Promise.all([first, second]);
      expect(order.indexOf('bestMove')).toBeLessThan(order.indexOf('analyse'));
      expect(order.lastIndexOf('bestMove')).toBeLessThan(order.indexOf('analyse'));
    } finally {
      await withBook.close();
    }
    const chess960 = new api.Engine({ chess960: true });
    try {
      const r = await chess960.analyse('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1', { depth: 1, searchMoves: ['O-O'] });
      expect(r.bestMove).toEqual({ uci: 'e1h1', san: 'O-O' });
    } finally {
      await chess960.close();
    }
  });

  it('close() ends running and queued searches with EngineClosedError, and every later call', async () => {
    const e = new api.Engine();
    const running = e.analyse('startpos', { infinite: true }, { signal: new AbortController().signal });
    const queued = e.analyse('startpos', { depth: 2 });
    await e.close();
    await expect(running).rejects.toBeInstanceOf(api.EngineClosedError);
    await expect(queued).rejects.toBeInstanceOf(api.EngineClosedError);
    await expect(e.analyse('startpos', { depth: 1 })).rejects.toBeInstanceOf(api.EngineClosedError);
    await expect(e.bestMove('startpos', { depth: 1 })).rejects.toBeInstanceOf(api.EngineClosedError);
    expect(() => e.newGame()).toThrow(api.EngineClosedError);
    await e.close();
    expect(e.closed).toBe(true);
  });

  it('does not keep a Node.js program alive once its searches are done', () => {
    const script = `import(${JSON.stringify(BUNDLE)}).then(async ({ Engine }) => {
      const engine = new Engine();
      const r = await engine.analyse('startpos', { depth: 3 });
      console.log('best', r.bestMove.uci);
    });`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30000 });
    expect(r.stdout).toMatch(/^best [a-h][1-8][a-h][1-8]/);
    expect(r.status).toBe(0);
  });
});

describe('tablebases', () => {
  const folder = join(ROOT, 'test', 'data', 'syzygy');
  const won = 'R7/8/4K3/7k/8/8/3n4/8 w - - 0 1';

  it('probes a position: WDL with the fifty-move counter, DTZ, and a move that keeps the result', async () => {
    const logs: string[] = [];
    const tb = new api.Engine({ syzygyPath: folder, onLog: (l) => logs.push(l) });
    try {
      expect(logs).toContain('SyzygyPath: 11 tables (7 with DTZ) up to 4 pieces');
      const probe = tb.probe(won)!;
      expect(probe.wdl).toBe('win');
      expect(probe.dtz).toBe(20);
      const after = tb.probe({ fen: won, moves: [probe.bestMove!.uci] })!;
      expect(after.wdl).toBe('loss');
      expect(after.dtz).toBeLessThan(0);
      // The same position 85 plies into its fifty moves: a win the rule spoils.
      expect(tb.probe(won.replace(' 0 1', ' 85 1'))!.wdl).toBe('cursed-win');
      // Five pieces: not in these tables.
      expect(tb.probe('8/5k2/8/3p4/3P4/8/2K5/R7 w - - 0 1')).toBeNull();
      const result = await tb.analyse(won, { depth: 5 });
      expect(result.score).toEqual({ type: 'cp', value: 19999 });
      expect(tb.probe({ fen: won, moves: [result.bestMove!.uci] })!.wdl).toBe('loss');
    } finally {
      await tb.close();
    }
  }, 30000);

  it('names a mislabelled file through onLog and answers without it', async () => {
    const dir = scratchDir('kestrel-api-syzygy-');
    copyFileSync(join(folder, 'KRvK.rtbw'), join(dir, 'KQvK.rtbw'));
    copyFileSync(join(folder, 'KRvK.rtbz'), join(dir, 'KQvK.rtbz'));
    const logs: string[] = [];
    const tb = new api.Engine({ syzygyPath: dir, onLog: (l) => logs.push(l) });
    try {
      expect(logs).toContain(`SyzygyPath: ${dir}/KQvK.rtbw: its header holds other pieces than its name says; KQvK left out`);
      // (It never returned: KRvK's header read as KQvK's.)
      expect(tb.probe('8/8/8/4k3/8/8/8/4K2Q b - - 0 1')).toBeNull();
    } finally {
      await tb.close();
    }
  }, 30000);

  it('names no move the tables cannot answer for (a folder lacking tables)', async () => {
    const dir = scratchDir('kestrel-api-syzygy-');
    for (const f of ['KPvKP.rtbw', 'KPvKP.rtbz']) copyFileSync(join(folder, f), join(dir, f));
    const tb = new api.Engine({ syzygyPath: dir });
    try {
      // Only b5c4 draws; after every move Black's king may take h3, into KPvK, which is not there.
      expect(tb.probe('8/8/8/1K6/3p4/7P/6k1/8 w - - 0 1')).toEqual({ wdl: 'draw', dtz: 0, bestMove: null });
      // Only h3g2 draws; the DTZ after the other moves needs KQvKP (not there), their WDL does not: ranked by WDL.
      expect(tb.probe('8/6k1/4P3/8/8/7K/5p2/8 w - - 0 1')?.bestMove?.uci).toBe('h3g2');
    } finally {
      await tb.close();
    }
  }, 30000);
});
