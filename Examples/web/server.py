#!/usr/bin/env python3
"""The web search demo's server, on loopback: the repository's files (the page, the web
binding, the WebAssembly module) and the demo's search API (Examples/python/search_server.py:
per-request latency, rate limits and dropped connections) from one origin.

    python3 Examples/web/server.py [--latency 0.3] [--port 8000]
    then open http://127.0.0.1:8000/Examples/web/search.html   (make wasm first)

POST /control/fail-next?kind=rate_limit&retry_after=1 (or kind=drop, or kind=unavailable: a
503) makes the next search request fail, as the tests do. (A browser sends a GET again when
its connection is dropped, so `drop` may go unseen; `unavailable` always reaches the page.)
"""
from __future__ import annotations

import argparse
import mimetypes
import sys
import threading
from pathlib import Path
from typing import Optional
from urllib.parse import parse_qs, urlsplit

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Examples" / "python"))

import search_server  # noqa: E402

SERVED = ("Examples/web/", "bindings/web/lib/", ".build/wasm/corelogic.wasm")
TYPES = {".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm",
         ".html": "text/html; charset=utf-8", ".css": "text/css"}


class DemoServer(search_server.SearchServer):
    """SearchServer whose handler also serves the page and its files."""

    def __init__(self, latency: float, port: int = 0) -> None:
        super().__init__(latency=latency)
        self.port = port
        self.unavailable = 0

    def start(self) -> "DemoServer":
        owner = self

        class Handler(search_server._Handler):
            def do_GET(self) -> None:
                path = urlsplit(self.path).path.lstrip("/")
                if path.startswith("search/"):
                    if owner.unavailable:
                        owner.unavailable -= 1
                        owner.requests.append(self.path)
                        return self._json(503, {"message": "Service Unavailable"})
                    return super().do_GET()
                if not any(path == prefix or (prefix.endswith("/") and path.startswith(prefix)) for prefix in SERVED):
                    return self._json(404, {"message": "Not Found"})
                file = (ROOT / path).resolve()
                if ROOT not in file.parents or not file.is_file():
                    return self._json(404, {"message": "Not Found"})
                data = file.read_bytes()
                self.send_response(200)
                self.send_header("Content-Type", TYPES.get(file.suffix) or mimetypes.guess_type(file.name)[0] or "application/octet-stream")
                self.send_header("Content-Length", str(len(data)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(data)

            def do_POST(self) -> None:
                parts = urlsplit(self.path)
                if parts.path != "/control/fail-next":
                    return self._json(404, {"message": "Not Found"})
                params = parse_qs(parts.query)
                kind = params.get("kind", ["drop"])[0]
                if kind == "unavailable":
                    owner.unavailable += 1
                else:
                    owner.fail_next(kind, float(params.get("retry_after", ["1"])[0]))
                self._json(200, {"ok": True})

        Handler.owner = owner
        from http.server import ThreadingHTTPServer
        self._httpd = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="web-demo", daemon=True)
        self._thread.start()
        return self


def main(argv: Optional[list] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--latency", type=float, default=0.3)
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args(argv)
    server = DemoServer(args.latency, args.port).start()
    print(f"open {server.base_url}/Examples/web/search.html (Ctrl-C stops)")
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
