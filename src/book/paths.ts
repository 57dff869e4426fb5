// Where the shipped book is: books/kestrel.bin at the package root. From the
// bundle (dist/kestrel.js) that is ../books/kestrel.bin; from the sources
// (src/book/paths.ts, run by tsx or vitest) it is ../../books/kestrel.bin.

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const SHIPPED_BOOK_NAME = 'kestrel.bin';

/** Absolute path of the shipped book (the bundle's location when neither candidate exists). */
export function shippedBookPath(): string {
  const candidates = [
    new URL(`../books/${SHIPPED_BOOK_NAME}`, import.meta.url),
    new URL(`../../books/${SHIPPED_BOOK_NAME}`, import.meta.url),
  ].map((url) => fileURLToPath(url));
  return candidates.find((path) => existsSync(path)) ?? candidates[0];
}
