// A static file server for the demo page (web/) and the browser build:
//
//   node scripts/serve.mjs [--port 8080] [--no-isolation]
//
// serves the repository's folder at http://127.0.0.1:<port>/ (the demo is
// /web/), with the two headers that make a page cross-origin isolated, so
// that the engine may use several threads (docs/browser.md):
//   Cross-Origin-Opener-Policy: same-origin
//   Cross-Origin-Embedder-Policy: require-corp
// --no-isolation leaves them out (one thread). --port 0 picks a free port.
// Prints "Serving <url>" once it listens.

import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.bin': 'application/octet-stream',
  '.nnue': 'application/octet-stream',
  '.map': 'application/json',
};

const arg = (name) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const port = Number(arg('--port') ?? 8080);
const isolate = !process.argv.includes('--no-isolation');

const server = createServer((req, res) => {
  const headers = isolate ? { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' } : {};
  const url = new URL(req.url ?? '/', 'http://localhost');
  let path = normalize(join(ROOT, decodeURIComponent(url.pathname)));
  if (path !== ROOT && !path.startsWith(ROOT + sep)) {
    res.writeHead(403, headers).end('forbidden');
    return;
  }
  try {
    if (statSync(path).isDirectory()) path = join(path, 'index.html');
    const size = statSync(path).size;
    res.writeHead(200, {
      ...headers,
      'Content-Type': TYPES[extname(path)] ?? 'application/octet-stream',
      'Content-Length': size,
      'Cache-Control': 'no-cache',
    });
    createReadStream(path).pipe(res);
  } catch {
    res.writeHead(404, headers).end('not found');
  }
});

server.listen(port, '127.0.0.1', () => {
  const address = server.address();
  console.log(`Serving http://127.0.0.1:${address.port}/ (${isolate ? 'cross-origin isolated' : 'not isolated'}); the demo is /web/`);
});
