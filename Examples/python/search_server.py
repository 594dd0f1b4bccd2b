"""A small GitHub-style repository search API for the demo and the tests.

    GET /search/repositories?q=swift&page=2&per_page=10

answers ``{"total_count": N, "items": [{"id", "name", "stars"}, ...]}`` with a
``Link: <absolute URL>; rel="next"`` header while there are more pages. It
serves the bundled ``repos.json`` from a ``ThreadingHTTPServer`` on 127.0.0.1,
with a per-request latency and switchable faults:

* ``server.fail_next("rate_limit", retry_after=1.5)``: 403 with ``Retry-After``;
* ``server.fail_next("drop")``: the connection is closed without an answer.

Standard library only; usable as a context manager::

    with SearchServer(latency=0.1) as server:
        print(server.base_url)
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Deque, Dict, List, Optional, Tuple
from urllib.parse import parse_qs, urlencode, urlsplit

DATA_FILE = Path(__file__).with_name("repos.json")
DEFAULT_PER_PAGE = 10
MAX_PER_PAGE = 100


def load_repos(path: Path = DATA_FILE) -> List[Dict[str, Any]]:
    """Load the bundled repositories."""
    with open(path, encoding="utf-8") as file:
        return json.load(file)  # type: ignore[no-any-return]


def search(repos: List[Dict[str, Any]], query: str) -> List[Dict[str, Any]]:
    """Repositories whose name or description contains every word of
    ``query`` (case-insensitive), most stars first."""
    words = query.lower().split()
    if not words:
        return []
    found = [
        repo for repo in repos
        if all(word in repo["name"].lower() or word in repo["description"].lower() for word in words)
    ]
    found.sort(key=lambda repo: (-repo["stars"], repo["id"]))
    return found


class SearchServer:
    """The search API on a free port of 127.0.0.1, served by a background thread.

    Args:
        latency: seconds each answer waits before it is sent.
        repos: the data set (defaults to ``repos.json``).
    """

    def __init__(self, latency: float = 0.0, repos: Optional[List[Dict[str, Any]]] = None) -> None:
        self.latency = latency
        self.repos = repos if repos is not None else load_repos()
        self.requests: List[str] = []  # every request path, in arrival order
        self._faults: Deque[Tuple[str, float]] = deque()
        self._lock = threading.Lock()
        self._httpd: Optional[ThreadingHTTPServer] = None
        self._thread: Optional[threading.Thread] = None

    # -- lifetime -----------------------------------------------------------

    def start(self) -> "SearchServer":
        """Bind a free port and serve in a daemon thread."""
        server = self

        class Handler(_Handler):
            owner = server

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="search-server", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and close the socket."""
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    def __enter__(self) -> "SearchServer":
        return self.start()

    def __exit__(self, *exc_info: Any) -> None:
        self.stop()

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>``."""
        assert self._httpd is not None, "the server is not started"
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    # -- faults -------------------------------------------------------------

    def fail_next(self, kind: str, retry_after: float = 1.0) -> None:
        """Make the next search request fail: ``"rate_limit"`` (403 with
        ``Retry-After: retry_after``) or ``"drop"`` (connection closed)."""
        if kind not in ("rate_limit", "drop"):
            raise ValueError(f"unknown fault {kind!r}")
        with self._lock:
            self._faults.append((kind, retry_after))

    def _take_fault(self) -> Optional[Tuple[str, float]]:
        with self._lock:
            return self._faults.popleft() if self._faults else None

    # -- answers ------------------------------------------------------------

    def page(self, query: str, page: int, per_page: int) -> Tuple[Dict[str, Any], Optional[str]]:
        """The body of one page and the absolute URL of the next, if any."""
        found = search(self.repos, query)
        start = (page - 1) * per_page
        items = [
            {"id": repo["id"], "name": repo["name"], "stars": repo["stars"]}
            for repo in found[start:start + per_page]
        ]
        next_url = None
        if start + per_page < len(found):
            next_url = f"{self.base_url}/search/repositories?" + urlencode(
                {"q": query, "page": page + 1, "per_page": per_page}
            )
        return {"total_count": len(found), "items": items}, next_url


class _Handler(BaseHTTPRequestHandler):
    owner: SearchServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # quiet: the demo prints its own log
        pass

    def do_GET(self) -> None:
        owner = self.owner
        owner.requests.append(self.path)
        parts = urlsplit(self.path)
        if parts.path != "/search/repositories":
            return self._json(404, {"message": "Not Found"})
        params = parse_qs(parts.query)
        query = params.get("q", [""])[0]
        try:
            page = int(params.get("page", ["1"])[0])
            per_page = int(params.get("per_page", [str(DEFAULT_PER_PAGE)])[0])
        except ValueError:
            return self._json(422, {"message": "page and per_page must be integers"})
        if not query or page < 1 or not 1 <= per_page <= MAX_PER_PAGE:
            return self._json(422, {"message": "Validation Failed"})
        if owner.latency:
            time.sleep(owner.latency)
        fault = owner._take_fault()
        if fault is not None and fault[0] == "drop":
            # Close without a single byte of answer, as a dying network would.
            self.close_connection = True
            try:
                self.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            return
        if fault is not None and fault[0] == "rate_limit":
            return self._json(
                403,
                {"message": "API rate limit exceeded"},
                {"Retry-After": f"{fault[1]:g}", "X-RateLimit-Remaining": "0"},
            )
        body, next_url = owner.page(query, page, per_page)
        headers = {"Link": f'<{next_url}>; rel="next"'} if next_url else {}
        self._json(200, body, headers)

    def _json(self, status: int, body: Any, headers: Optional[Dict[str, str]] = None) -> None:
        data = json.dumps(body, separators=(",", ":")).encode("utf-8")
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client went away (a cancelled request): nothing to answer


if __name__ == "__main__":
    with SearchServer(latency=0.2) as running:
        print(f"serving {len(running.repos)} repositories on {running.base_url} (Ctrl-C stops)")
        try:
            threading.Event().wait()
        except KeyboardInterrupt:
            pass
