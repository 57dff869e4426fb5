# Serves <sha>.zip (git archive of the Kestrel repository, as GitHub's zipball) and the book zip, on localhost only.
#   zipserver.py <Kestrel repository> [<book.epd>, default test/data/uho-sample.epd]
import http.server, subprocess, sys, zipfile, io, os
REPO = sys.argv[1]
BOOK = sys.argv[2] if len(sys.argv) > 2 else os.path.join(REPO, 'test/data/uho-sample.epd')
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        name = self.path.strip('/')
        try:
            if name == os.path.basename(BOOK) + '.zip':
                buf = io.BytesIO()
                with zipfile.ZipFile(buf, 'w', zipfile.ZIP_DEFLATED) as z: z.write(BOOK, os.path.basename(BOOK))
                data = buf.getvalue()
            else:
                sha = name[:-4]
                data = subprocess.run(['git', '-C', REPO, 'archive', '--format=zip', '--prefix=kestrel-%s/' % sha[:7], sha], capture_output=True, check=True).stdout
            self.send_response(200); self.send_header('Content-Length', str(len(data))); self.end_headers(); self.wfile.write(data)
        except Exception as e:
            self.send_response(404); self.end_headers()
    def log_message(self, *a): pass
http.server.ThreadingHTTPServer(('127.0.0.1', 8001), H).serve_forever()
