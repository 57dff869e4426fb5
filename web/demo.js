// The demo: play against Kestrel in the page, and watch its analysis.
// A plain board of our own (no board library); the engine and the rules
// come from the library's browser build.

import { Engine, START_FEN, gameStatus, legalMoves } from '../dist/browser/index.js';

const $ = (id) => document.getElementById(id);
const FILES = 'abcdefgh';
const GLYPHS = { k: '♚', q: '♛', r: '♜', b: '♝', n: '♞', p: '♟' };
const params = new URLSearchParams(location.search);

// Several threads where the page may share memory (cross-origin isolated), else one.
const threads = globalThis.crossOriginIsolated ? Math.max(2, Math.min(4, navigator.hardwareConcurrency || 2)) : 1;
const engine = new Engine({ threads, hash: 32 });
$('engine-info').textContent = globalThis.crossOriginIsolated
  ? `${engine.threads} threads (the page is cross-origin isolated)`
  : '1 thread (the page is not cross-origin isolated)';

const game = {
  moves: [],
  sans: [],
  human: 'white',
  selected: null,
  thinking: false,
  over: false,
  /** The analysis running while it is the human's move. */
  analysis: null,
};

if (params.get('time') !== null) $('time').value = params.get('time');

const position = () => ({ fen: START_FEN, moves: [...game.moves] });
const turn = () => gameStatus(position()).turn;

/** The pieces of a FEN by square name ('e4' -> 'wP'). */
function pieces(fen) {
  const map = new Map();
  fen
    .split(' ')[0]
    .split('/')
    .forEach((row, r) => {
      let f = 0;
      for (const c of row) {
        if (/\d/.test(c)) f += Number(c);
        else {
          map.set(`${FILES[f]}${8 - r}`, (c === c.toUpperCase() ? 'w' : 'b') + c.toUpperCase());
          f++;
        }
      }
    });
  return map;
}

function render() {
  const status = gameStatus(position());
  const onBoard = pieces(status.fen);
  const targets = game.selected === null ? [] : legalMoves(position()).filter((m) => m.uci.startsWith(game.selected));
  const last = game.moves.at(-1) ?? '';
  const board = $('board');
  board.replaceChildren();
  const flip = game.human === 'black';
  for (let row = 0; row < 8; row++) {
    for (let col = 0; col < 8; col++) {
      const file = flip ? 7 - col : col;
      const rank = flip ? row + 1 : 8 - row;
      const name = `${FILES[file]}${rank}`;
      const sq = document.createElement('div');
      sq.className = `sq ${(file + rank) % 2 === 1 ? 'light' : 'dark'}`;
      sq.dataset.square = name;
      if (last.slice(0, 2) === name || last.slice(2, 4) === name) sq.classList.add('last');
      if (game.selected === name) sq.classList.add('selected');
      if (targets.some((m) => m.uci.slice(2, 4) === name)) sq.classList.add('target');
      const piece = onBoard.get(name);
      if (piece !== undefined) {
        const span = document.createElement('span');
        span.className = `piece ${piece[0]}`;
        span.dataset.piece = piece;
        span.textContent = GLYPHS[piece[1].toLowerCase()];
        sq.append(span);
      }
      if (row === 7) sq.append(coord('file', FILES[file]));
      if (col === 0) sq.append(coord('rank', String(rank)));
      sq.addEventListener('click', () => onSquare(name));
      board.append(sq);
    }
  }
  const list = $('moves');
  list.replaceChildren();
  for (let i = 0; i < game.sans.length; i += 2) {
    const li = document.createElement('li');
    li.textContent = `${game.sans[i]} ${game.sans[i + 1] ?? ''}`.trim();
    list.append(li);
  }
  showStatus(status);
}

function coord(kind, text) {
  const span = document.createElement('span');
  span.className = `coord ${kind}`;
  span.textContent = text;
  return span;
}

function showStatus(status) {
  const el = $('status');
  if (status.outcome !== null) {
    game.over = true;
    const { result, reason } = status.outcome;
    const winner = result === '1-0' ? 'white' : result === '0-1' ? 'black' : null;
    el.textContent = `${result}: ${reason}${winner === null ? '' : winner === game.human ? ', you win' : ', Kestrel wins'}`;
    el.dataset.state = 'over';
  } else if (game.thinking) {
    el.textContent = 'Kestrel is thinking…';
    el.dataset.state = 'thinking';
  } else {
    el.textContent = `Your move (${game.human})${status.inCheck ? ': check' : ''}`;
    el.dataset.state = 'your-move';
  }
}

/** Shows a line of the search; `fromTurn` is the side to move in the position searched. */
function showLine(line, fromTurn) {
  if (line.multiPv !== 1) return;
  const sign = fromTurn === 'white' ? 1 : -1;
  const { type, value } = line.score;
  $('eval').textContent = type === 'mate' ? `#${sign * value}` : `${sign * value >= 0 ? '+' : ''}${((sign * value) / 100).toFixed(2)}`;
  $('depth').textContent = `${line.depth}/${line.seldepth}`;
  $('nodes').textContent = line.nodes.toLocaleString('en');
  const white = fromTurn === 'white' ? line.wdl.win + line.wdl.draw / 2 : line.wdl.loss + line.wdl.draw / 2;
  $('bar-fill').style.width = `${white / 10}%`;
  // The line with move numbers, from the position searched.
  let ply = game.moves.length;
  const parts = [];
  for (const san of line.pvSan) {
    if (ply % 2 === 0) parts.push(`${ply / 2 + 1}.`);
    else if (parts.length === 0) parts.push(`${(ply + 1) / 2}…`);
    parts.push(san);
    ply++;
  }
  $('pv').textContent = parts.join(' ');
}

function onSquare(name) {
  if (game.thinking || game.over || turn() !== game.human) return;
  if (game.selected !== null && game.selected !== name) {
    const options = legalMoves(position()).filter((m) => m.uci.slice(0, 4) === game.selected + name);
    if (options.length > 0) {
      // A promotion is to a queen.
      const move = options.find((m) => m.uci.length === 4 || m.uci.endsWith('q')) ?? options[0];
      game.selected = null;
      void humanMove(move);
      return;
    }
  }
  const piece = pieces(gameStatus(position()).fen).get(name);
  game.selected = piece !== undefined && piece[0] === game.human[0] && game.selected !== name ? name : null;
  render();
}

async function stopAnalysis() {
  const running = game.analysis;
  game.analysis = null;
  if (running !== null) {
    running.controller.abort();
    await running.done;
  }
}

function startAnalysis() {
  if (game.over) return;
  const controller = new AbortController();
  const from = turn();
  const done = engine
    .analyse(position(), { infinite: true }, { signal: controller.signal, onInfo: (l) => showLine(l, from) })
    .catch(() => {});
  game.analysis = { controller, done };
}

async function humanMove(move) {
  await stopAnalysis();
  game.moves.push(move.uci);
  game.sans.push(move.san);
  render();
  if (!game.over) await engineMove();
}

async function engineMove() {
  game.thinking = true;
  render();
  const from = turn();
  try {
    const best = await engine.bestMove(position(), { movetime: Number($('time').value) }, { onInfo: (l) => showLine(l, from) });
    if (best !== null) {
      game.moves.push(best.uci);
      game.sans.push(best.san);
    }
  } catch (e) {
    $('status').textContent = `error: ${e.message}`;
  } finally {
    game.thinking = false;
  }
  render();
  startAnalysis();
}

async function newGame() {
  await stopAnalysis();
  if (game.thinking) return;
  engine.newGame();
  game.moves = [];
  game.sans = [];
  game.selected = null;
  game.over = false;
  game.human = $('side').value;
  render();
  if (game.human === 'black') await engineMove();
  else startAnalysis();
}

async function takeBack() {
  if (game.thinking || game.moves.length === 0) return;
  await stopAnalysis();
  const plies = turn() === game.human ? 2 : 1;
  game.moves.splice(-plies);
  game.sans.splice(-plies);
  game.over = false;
  game.selected = null;
  render();
  startAnalysis();
}

$('new-game').addEventListener('click', () => void newGame());
$('side').addEventListener('change', () => void newGame());
$('take-back').addEventListener('click', () => void takeBack());

// For tests and the curious: the game as it stands.
globalThis.kestrelDemo = { game, legalMoves: () => legalMoves(position()), engine };

void newGame();
