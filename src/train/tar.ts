// Reading tar archives member by member, for OpenBench's `<id>.pgn.tar`
// (Python's tarfile: POSIX ustar headers, pax extended headers when a value
// does not fit). The file is read at positions, one member at a time, so an
// archive of any size takes the memory of its largest member.
//
// The format: 512-byte headers, each followed by the member's bytes padded
// to a multiple of 512; two zero blocks end the archive. Sizes are octal
// text (or base-256 for large ones); names may continue in the ustar prefix
// field, a pax header's `path`, or a GNU `L` entry before the member.

import { closeSync, openSync, readSync } from 'node:fs';

const BLOCK = 512;

export class TarError extends Error {}

function text(header: Uint8Array, start: number, length: number): string {
  const field = header.subarray(start, start + length);
  const end = field.indexOf(0);
  return new TextDecoder().decode(end < 0 ? field : field.subarray(0, end));
}

function number(header: Uint8Array, start: number, length: number): number {
  // Base-256 (GNU), for values past the octal field's range: the high bit of the first byte is set.
  if (header[start] & 0x80) {
    let n = header[start] & 0x7f;
    for (let i = 1; i < length; i++) n = n * 256 + header[start + i];
    return n;
  }
  const s = text(header, start, length).trim();
  return s === '' ? 0 : Number.parseInt(s, 8);
}

/** Whether the header's checksum (the sum of its bytes, the checksum field read as spaces) is right. */
function checksumOk(header: Uint8Array): boolean {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : header[i];
  return sum === number(header, 148, 8);
}

/** The records of a pax extended header: `<length> <key>=<value>\n`. */
function paxRecords(bytes: Uint8Array): Map<string, string> {
  const records = new Map<string, string>();
  const s = new TextDecoder().decode(bytes);
  for (const line of s.split('\n')) {
    const m = /^\d+ ([^=]+)=(.*)$/s.exec(line);
    if (m !== null) records.set(m[1], m[2]);
  }
  return records;
}

/** Whether a file's first block is a tar header (its checksum is right). */
export function isTarHeader(block: Uint8Array): boolean {
  return block.length >= BLOCK && block.subarray(0, BLOCK).some((b) => b !== 0) && checksumOk(block);
}

/** The regular files of a tar archive, in order, with their bytes. */
export function* tarMembers(path: string): Generator<{ name: string; bytes: Uint8Array }> {
  const fd = openSync(path, 'r');
  try {
    const header = new Uint8Array(BLOCK);
    const read = (into: Uint8Array, at: number): void => {
      let done = 0;
      while (done < into.length) {
        const n = readSync(fd, into, done, into.length - done, at + done);
        if (n === 0) throw new TarError(`${path}: ends inside an entry`);
        done += n;
      }
    };
    let at = 0;
    let nextName: string | null = null;
    for (;;) {
      const n = readSync(fd, header, 0, BLOCK, at);
      if (n < BLOCK || header.every((b) => b === 0)) return; // end of archive
      if (!checksumOk(header)) throw new TarError(`${path}: bad tar header at byte ${at}`);
      const size = number(header, 124, 12);
      const type = String.fromCharCode(header[156] || 0x30);
      const dataAt = at + BLOCK;
      at = dataAt + Math.ceil(size / BLOCK) * BLOCK;
      if (type === 'x' || type === 'L') {
        const bytes = new Uint8Array(size);
        read(bytes, dataAt);
        nextName = type === 'L' ? text(bytes, 0, size) : (paxRecords(bytes).get('path') ?? nextName);
        continue;
      }
      if (type !== '0' && type !== '7') {
        nextName = null; // directories, links, global headers: nothing to read
        continue;
      }
      const prefix = text(header, 257, 6) === 'ustar' ? text(header, 345, 155) : '';
      const name = nextName ?? (prefix !== '' ? `${prefix}/${text(header, 0, 100)}` : text(header, 0, 100));
      nextName = null;
      const bytes = new Uint8Array(size);
      read(bytes, dataAt);
      yield { name, bytes };
    }
  } finally {
    closeSync(fd);
  }
}
