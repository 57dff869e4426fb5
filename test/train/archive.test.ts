// The bzip2 decoder and the tar reader behind `convert-pgn`'s OpenBench
// archives. The bzip2 streams below were made by Python's bz2 module
// (libbzip2): runs around the four-byte mark, several blocks, two streams
// one after the other, every byte value.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Bzip2Error, bunzip2, isBzip2 } from '../../src/train/bzip2.js';
import { TarError, isTarHeader, tarMembers } from '../../src/train/tar.js';
import { scratchDir } from '../scratch.js';

const RUNS = 'QlpoOTFBWSZTWfKT7WYAAANBgeAAPgAAQACAAAggACG1TRjKEAMPZkHqRItOYNjlHWlXxdyRThQkPKT7WYA=';
const BLOCKS =
  'QlpoMTFBWSZTWVoLN+QAQRcBADgAIAAwzAUppqpCB1UhA1UhA8xQVkmU1laCzfkAEEXAQA4ACAAMMwFKaaqQgdVIQNVIQPMUFZJlNZWgs35ABBFwEAOAAgADDMBSmmqkIHVSEDVSEDzFBWSZTWUZNlGIABeUFgAAIOgQcACAAciDJiBNUppk01sRCyVmivSuVCFuoQuVCF2oQsqELtQhXi7kinChIJRdNjI=';
const STREAMS = 'QlpoOTFBWSZTWWcOD4IAAAERgEAEASAcACAAMQwAxMItzl3i7kinChIM4cHwQEJaaDkxQVkmU1kmigI0AAACgYAOAYgAIAAiGGgwBwKYXckU4UJAmigI0A==';
const ALL_BYTES =
  'QlpoOTFBWSZTWeWjwewAAAH/////////////////////////////////////////////wAIcAAEmAAmAAJgAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAkwAEwABMAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAEmAAmAAJgAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAFVVQEwEwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAD+kBIEQMghBT/iDEHIQQkhRCyGH/kNIcQ8iBESJETIoRUixFyMEZI0RsjhHSPEfJASEkRIySElJMSclBKSVErJYS0lxLyYExJkTMmhNSbE3JwTknROyeE9J8T8oBQShFDKIUUoxRykFJKUUsphTSnFPKgVEqRUyqFVKsVcrBWStFbK4V0rxXywFhLEWMshZSzFnLQWktRay2FtLcW8uBcS5FzLoXUuxdy8F5L0XsvhfS/F/MAYEwRgzCGFMMYcxBiTFGLMYY0xxjzIGRMkZMyhlTLGXMwZkzRmzOGdM8Z80BoTRGjNIaU0xpzUGpNUas1hrTXGvNgbE2RszaG1Nsbc3BuTdG7N4b03xvzgHBOEcM4hxTjHHOQck5RyzmHNOcc86B0TpHTOodU6x1zsHZO0ds7h3TvHfPAeE8R4zyHlPMec9B6T1HrPYe09x7z4HxPkfM+h9T7H3Pwfk/R+z+H9P8LuSKcKEhy0eD2A';

const bytes = (base64: string): Uint8Array => new Uint8Array(Buffer.from(base64, 'base64'));
const text = (data: Uint8Array): string => Buffer.from(data).toString('latin1');

describe('bunzip2', () => {
  it('decodes what libbzip2 writes', () => {
    expect(text(bunzip2(bytes(RUNS)))).toBe(`${'a'.repeat(1000)}bbbccccddddd${'e'.repeat(259)}x`);
    expect(text(bunzip2(bytes(BLOCKS)))).toBe(`${'abc'.repeat(100000)}${'Kestrel'.repeat(3000)}`);
    expect(text(bunzip2(bytes(STREAMS)))).toBe('first, second');
    const all = bunzip2(bytes(ALL_BYTES));
    expect(all).toHaveLength(1024);
    for (let i = 0; i < 1024; i++) expect(all[i]).toBe(i & 0xff);
  });

  it('refuses damaged, truncated and foreign data', () => {
    expect(isBzip2(bytes(RUNS))).toBe(true);
    expect(isBzip2(new TextEncoder().encode('[Event "x"]'))).toBe(false);
    const damaged = bytes(BLOCKS);
    damaged[60] ^= 0x10;
    expect(() => bunzip2(damaged)).toThrow(Bzip2Error);
    expect(() => bunzip2(bytes(BLOCKS).subarray(0, 100))).toThrow(/unexpected end of data/);
    expect(() => bunzip2(new TextEncoder().encode('not bzip2'))).toThrow(/not a bzip2 stream/);
  });
});

/** A tar header: ustar, octal fields, the checksum computed as the format says. */
function header(name: string, size: number, type: string, prefix = ''): Uint8Array {
  const h = new Uint8Array(512);
  const put = (at: number, s: string): void => h.set(new TextEncoder().encode(s), at);
  put(0, name);
  put(100, '0000644\0');
  put(124, `${size.toString(8).padStart(11, '0')}\0`);
  put(156, type);
  put(257, 'ustar\x0000');
  put(345, prefix);
  put(148, '        ');
  const sum = h.reduce((a, b) => a + b, 0);
  put(148, `${sum.toString(8).padStart(6, '0')}\0 `);
  return h;
}

function entry(name: string, data: string, type = '0', prefix = ''): Uint8Array[] {
  const body = new TextEncoder().encode(data);
  const padded = new Uint8Array(Math.ceil(body.length / 512) * 512);
  padded.set(body);
  return [header(name, body.length, type, prefix), padded];
}

const dir = scratchDir('kestrel-tar-');

describe('tarMembers', () => {
  it('reads regular files in order, with ustar prefixes, pax paths and GNU long names', () => {
    const long = `${'d/'.repeat(60)}long.pgn`;
    const pax = `${long.length + 10} path=${long}\n`; // the length counts the whole record, its own three digits too
    const parts = [
      ...entry('a.pgn.bz2', 'first'),
      ...entry('dir/', '', '5'),
      ...entry('b.pgn', 'second', '0', 'games'),
      ...entry('PaxHeader', pax, 'x'),
      ...entry('cut-name', 'third'),
      ...entry('././@LongLink', long, 'L'),
      ...entry('cut-name', 'fourth'),
      new Uint8Array(1024),
    ];
    const file = join(dir, 'a.tar');
    writeFileSync(file, Buffer.concat(parts));
    const members = [...tarMembers(file)].map((m) => [m.name, new TextDecoder().decode(m.bytes)]);
    expect(members).toEqual([
      ['a.pgn.bz2', 'first'],
      ['games/b.pgn', 'second'],
      [long, 'third'],
      [long, 'fourth'],
    ]);
    expect(isTarHeader(parts[0])).toBe(true);
    expect(isTarHeader(new Uint8Array(512))).toBe(false);
  });

  it('refuses a damaged header and a cut archive', () => {
    const bad = header('x', 3, '0');
    bad[0] ^= 1;
    const damaged = join(dir, 'damaged.tar');
    writeFileSync(damaged, Buffer.concat([bad, new Uint8Array(1536)]));
    expect(() => [...tarMembers(damaged)]).toThrow(TarError);
    const cut = join(dir, 'cut.tar');
    writeFileSync(cut, Buffer.concat([header('x', 2000, '0'), new Uint8Array(600)]));
    expect(() => [...tarMembers(cut)]).toThrow(/ends inside an entry/);
  });
});
