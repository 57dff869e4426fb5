// Runs the tuning tools without the kestrel CLI:
//   npx tsx scripts/tune.ts tune --data <file> --out src/eval/weights.ts
//   npx tsx scripts/tune.ts texel-data --pgn games.pgn --out data.txt

import { texelDataMain, tuneMain } from '../src/tune/main.js';

const [command, ...rest] = process.argv.slice(2);
const run = command === 'tune' ? tuneMain : command === 'texel-data' ? texelDataMain : null;
if (run === null) {
  process.stderr.write('usage: scripts/tune.ts <tune|texel-data> [options]\n');
  process.exitCode = 2;
} else {
  run(rest).then(
    (code) => (process.exitCode = code),
    (e: unknown) => {
      process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
      process.exitCode = 1;
    },
  );
}
