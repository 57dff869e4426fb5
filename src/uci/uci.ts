// UCI protocol loop (stub until the UCI module lands).
export function runUci(): void {
  process.stdout.write('id name Kestrel\nuciok\n');
}
