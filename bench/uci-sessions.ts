// UCI sessions over every search driver, with depth and node limits only (a
// search on a clock is not repeatable), written out with the times taken
// away: two builds that search alike print the same text. A refactor of the
// search runs this before and after and compares the outputs.
//
//   npx tsx bench/uci-sessions.ts [--engine dist/kestrel.js] > sessions.txt
//   diff sessions-before.txt sessions-after.txt
//
// Left out of the text, as they depend on the clock: the time, nps and
// hashfull fields; the BookFile option (its default is a path beside the
// bundle); `currmove` lines and aspiration bounds (shown only after a
// second); for the mcts drivers, the lines reported on the clock (only each
// search's last line per multipv stays); and of a strength level's search
// only its notes (its move is a seeded random choice, seeded anew by each
// process).

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const at = args.indexOf('--engine');
const engine = at >= 0 ? args[at + 1] : `${ROOT}dist/kestrel.js`;

const DRIVERS = ['pvs', 'mtdf', 'mcts', 'mcts-qs', 'mcts-uniform', 'mcts-qs-uniform'];
const POSITIONS = [
  'position startpos',
  'position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6',
  'position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1',
  'position fen 8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1',
  // Mate in two, and a stalemate.
  'position fen 2bqkbn1/2pppp2/np2N3/r3P1p1/p2N2B1/5Q2/PPPPKPP1/RNB2r2 w - - 0 1',
  'position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1',
];
const alphaBeta = (d: string): boolean => d === 'pvs' || d === 'mtdf';

/** The session of one driver: searches by depth (alpha-beta) or by nodes, MultiPV, searchmoves, mate, a strength level. */
function session(driver: string): string[] {
  const go = alphaBeta(driver) ? 'go depth 9' : 'go nodes 3000';
  const lines = ['uci', `setoption name SearchDriver value ${driver}`, 'setoption name Hash value 16', 'isready'];
  for (const p of POSITIONS) lines.push('ucinewgame', p, go);
  lines.push('ucinewgame', POSITIONS[2], 'setoption name MultiPV value 3', alphaBeta(driver) ? 'go depth 7' : 'go nodes 2000');
  lines.push('setoption name MultiPV value 1', POSITIONS[1], `${go} searchmoves d2d3 b1c3`);
  lines.push(POSITIONS[4], alphaBeta(driver) ? 'go mate 2' : 'go nodes 500');
  lines.push('setoption name UCI_ShowWDL value true', POSITIONS[3], alphaBeta(driver) ? 'go depth 6' : 'go nodes 800');
  lines.push('setoption name UCI_ShowWDL value false');
  // A level: the levels search with pvs whatever the driver, and say so.
  lines.push('setoption name Skill Level value 6', 'ucinewgame', POSITIONS[1], 'go nodes 20000', 'setoption name Skill Level value 20');
  // The mcts drivers keep their tree from one search of a game to the next.
  lines.push('ucinewgame', 'position startpos', go, 'position startpos moves e2e4', go, 'position startpos moves e2e4 c7c5', go);
  lines.push('isready');
  return lines;
}

/** Runs one session; resolves with its output lines (as cleaned). */
function run(driver: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [engine], { stdio: ['pipe', 'pipe', 'inherit'] });
    const input = session(driver);
    const out: string[] = [];
    let buffer = '';
    let waiting = false;
    const next = (): void => {
      while (input.length > 0 && !waiting) {
        const line = input.shift()!;
        out.push(`> ${line}`);
        child.stdin.write(`${line}\n`);
        if (line.startsWith('go') || line === 'isready' || line === 'uci') waiting = true;
      }
      if (input.length === 0 && !waiting) child.stdin.end('quit\n');
    };
    child.stdout.on('data', (d: Buffer) => {
      buffer += d.toString();
      let nl = buffer.indexOf('\n');
      while (nl >= 0) {
        const line = buffer.slice(0, nl).trim();
        buffer = buffer.slice(nl + 1);
        nl = buffer.indexOf('\n');
        if (line === '') continue;
        out.push(line);
        if (line.startsWith('bestmove') || line === 'readyok' || line === 'uciok') {
          waiting = false;
          next();
        }
      }
    });
    child.on('error', reject);
    child.on('exit', () => resolve(clean(out, !alphaBeta(driver))));
    next();
  });
}

/** The lines without what depends on the clock, or on a level's random choice (seeded afresh by each process). */
function clean(lines: string[], mcts: boolean): string[] {
  let level = false;
  const stripped = lines
    .filter((l) => {
      if (l.startsWith('> setoption name Skill Level')) level = !l.endsWith(' 20');
      return !level || l.startsWith('>') || l.startsWith('info string');
    })
    .filter((l) => !/\bcurrmove\b/.test(l) && !/\b(lowerbound|upperbound)\b/.test(l))
    .filter((l) => !l.startsWith('option name BookFile'))
    .map((l) => l.replace(/ (time|nps|hashfull) \d+/g, ''));
  if (!mcts) return stripped;
  // Of each search's info lines, only the last one per multipv stays.
  const kept: string[] = [];
  let search: string[] = [];
  for (const l of stripped) {
    if (l.startsWith('info') && / pv /.test(l)) {
      search.push(l);
      continue;
    }
    if (l.startsWith('bestmove')) {
      const last = new Map<string, string>();
      for (const s of search) last.set(/ multipv (\d+)/.exec(s)?.[1] ?? '1', s);
      kept.push(...[...last.values()]);
      search = [];
    }
    kept.push(l);
  }
  return kept;
}

for (const driver of DRIVERS) {
  console.log(`## ${driver}`);
  for (const line of await run(driver)) console.log(line);
}
