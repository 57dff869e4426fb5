// Clocks, time controls and the board as drawn in a terminal.

import { describe, expect, it } from 'vitest';
import { Position } from '../../src/board/position.js';
import { BLACK, WHITE } from '../../src/board/types.js';
import { renderBoard } from '../../src/play/board-view.js';
import { Clock, formatClock, parseTimeControl } from '../../src/play/clock.js';
import { formatScore, lineToSan } from '../../src/play/notation-view.js';

describe('clocks', () => {
  it('reads minutes+increment and writes m:ss, with tenths near the end', () => {
    expect(parseTimeControl('5+3')).toEqual({ initialMs: 300_000, incrementMs: 3000 });
    expect(parseTimeControl('0.5')).toEqual({ initialMs: 30_000, incrementMs: 0 });
    expect(parseTimeControl('blitz')).toBeNull();
    expect(parseTimeControl('0+1')).toBeNull();
    expect(formatClock(300_000)).toBe('5:00');
    expect(formatClock(61_999)).toBe('1:01');
    expect(formatClock(9_450)).toBe('0:09.4');
    expect(formatClock(-5)).toBe('0:00.0');
    expect(formatClock(3_700_000)).toBe('1:01:40');
  });

  it('runs the side to move, charges its time and adds the increment', () => {
    let now = 0;
    const clock = new Clock({ initialMs: 60_000, incrementMs: 2000 }, () => now);
    clock.start(WHITE);
    now = 5000;
    expect(clock.remaining(WHITE)).toBe(55_000);
    expect(clock.remaining(BLACK)).toBe(60_000);
    expect(clock.punch()).toBe(57_000);
    clock.start(BLACK);
    now = 6000;
    expect(clock.goParams()).toEqual({ wtime: 57_000, btime: 59_000, winc: 2000, binc: 2000 });
    clock.pause();
    now = 100_000;
    expect(clock.remaining(BLACK)).toBe(59_000);
  });
});

describe('the board in a terminal', () => {
  const pos = new Position('rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2');

  it('draws letters from white, or from black with --flip, with coordinates and the last move', () => {
    const lines = renderBoard(pos, { style: 'ascii', flipped: false, lastMove: { from: 52, to: 36 } });
    expect(lines[0]).toBe('8  r  n  b  q  k  b  n  r ');
    expect(lines[2]).toBe('6  .  .  .  .  .  .  .  . ');
    expect(lines[3]).toBe('5  .  .  .  . [p] .  .  . ');
    expect(lines[1]).toBe('7  p  p  p  p [.] p  p  p ');
    expect(lines[8]).toBe('   a  b  c  d  e  f  g  h ');
    const flipped = renderBoard(pos, { style: 'ascii', flipped: true });
    expect(flipped[0]).toBe('1  R  N  B  K  Q  B  N  R ');
    expect(flipped[8]).toBe('   h  g  f  e  d  c  b  a ');
  });

  it('draws Unicode pieces on coloured squares', () => {
    const lines = renderBoard(pos, { style: 'color', colorDepth: 24, flipped: false });
    expect(lines[0]).toContain('\u265c');
    expect(lines[0]).toContain('\u001b[48;2;240;217;181m');
    expect(renderBoard(pos, { style: 'color', colorDepth: 8, flipped: false })[0]).toContain('\u001b[48;5;');
  });
});

describe('scores and lines', () => {
  it('writes scores in pawns or mates, and lines in SAN with numbers', () => {
    expect(formatScore({ cp: 34 })).toBe('+0.34');
    expect(formatScore({ cp: -250 })).toBe('-2.50');
    expect(formatScore({ cp: 0 })).toBe('0.00');
    expect(formatScore({ mate: -3 })).toBe('#-3');
    const pos = new Position();
    expect(lineToSan(pos, ['e2e4', 'e7e5', 'g1f3'], '1.')).toBe('1. e4 e5 2. Nf3');
    // The position is left as it was; an illegal move ends the line.
    expect(pos.fen()).toBe(new Position().fen());
    expect(lineToSan(pos, ['e2e4', 'e2e4'], '1.')).toBe('1. e4');
    expect(lineToSan(new Position('4k3/8/8/8/8/8/8/4K2R b K - 0 7'), ['e8d7', 'h1h7'], '7...')).toBe('7... Kd7 8. Rh7+');
  });
});
