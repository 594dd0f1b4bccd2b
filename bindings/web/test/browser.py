#!/usr/bin/env python3
"""Headless Chromium for the web binding's tests, offline: a loopback HTTP server over the
repository and Chromium driven through its DevTools protocol on a pipe
(--remote-debugging-pipe), with no other package.

    browser.py golden-adapter CORELOGIC_WASM
        A golden adapter (docs/golden-files.md) whose answers come from
        bindings/web/test/golden_page.html in the browser: each request line read on
        standard input is handed to the page's goldenReply and its reply written back.
        The driver runs every golden file through it as through any other host.

    browser.py demo OUT_DIR
        The search demo (Examples/web) driven as a person would: typing into the field
        letter by letter against a server with latency, a rate limit and a failing
        request, then a reload; reads the DOM after each, saves OUT_DIR/search.png.

The module is the one the page loads from .build/wasm/corelogic.wasm (make wasm).
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any, Dict, Optional

ROOT = Path(__file__).resolve().parents[3]


class Quiet(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm"}

    def log_message(self, *args: Any) -> None:
        pass


def serve(directory: Path, handler: Any = Quiet) -> http.server.ThreadingHTTPServer:
    """An HTTP server on 127.0.0.1 (a free port) over `directory`, in a thread."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(directory)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


class Browser:
    """Chromium, headless, with one page, spoken to over --remote-debugging-pipe."""

    def __init__(self) -> None:
        executable = shutil.which("chromium") or shutil.which("chromium-browser")
        if not executable:
            raise SystemExit("browser.py: no chromium on PATH (Tests/setup.sh installs Debian's)")
        self.profile = tempfile.mkdtemp(prefix="corelogic-chromium-")
        to_browser_r, self.to_browser = os.pipe()
        self.from_browser, from_browser_w = os.pipe()
        # The protocol's pipe is the child's file descriptors 3 (its input) and 4 (its output).
        def descriptors() -> None:
            os.dup2(to_browser_r, 3)
            os.dup2(from_browser_w, 4)
        self.process = subprocess.Popen(
            [executable, "--headless", "--remote-debugging-pipe", "--no-sandbox", "--disable-gpu",
             "--no-first-run", "--no-default-browser-check", "--disable-extensions",
             f"--user-data-dir={self.profile}", "--window-size=900,700", "about:blank"],
            preexec_fn=descriptors, close_fds=False,
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self.buffer = b""
        self.next_id = 0
        self.session: Optional[str] = None
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        self.call("Page.enable")
        self.call("Runtime.enable")

    def call(self, method: str, params: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
        self.next_id += 1
        message: Dict[str, Any] = {"id": self.next_id, "method": method, "params": params or {}}
        if self.session and not method.startswith("Target."):
            message["sessionId"] = self.session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        while True:
            reply = self.read()
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})

    def read(self) -> Dict[str, Any]:
        while b"\0" not in self.buffer:
            chunk = os.read(self.from_browser, 1 << 16)
            if not chunk:
                raise RuntimeError("chromium closed its pipe")
            self.buffer += chunk
        message, _, self.buffer = self.buffer.partition(b"\0")
        return json.loads(message)

    def evaluate(self, expression: str) -> Any:
        """The value of `expression` in the page (a promise is awaited)."""
        result = self.call("Runtime.evaluate", {"expression": expression, "awaitPromise": True, "returnByValue": True})
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            raise RuntimeError(details.get("exception", {}).get("description") or details.get("text"))
        return result["result"].get("value")

    def open(self, url: str, ready: str, timeout: float = 30.0) -> None:
        """Loads `url` and waits until `ready` (an expression) is true."""
        self.call("Page.navigate", {"url": url})
        self.evaluate(f"""new Promise((resolve, reject) => {{
            const start = Date.now();
            (function poll() {{
                let ok = false;
                try {{ ok = {ready}; }} catch (_) {{}}
                if (ok) return resolve(true);
                if (Date.now() - start > {int(timeout * 1000)}) return reject(new Error('not ready: ' + document.title));
                setTimeout(poll, 20);
            }})();
        }})""")

    def screenshot(self, path: Path) -> None:
        import base64
        data = self.call("Page.captureScreenshot", {"format": "png"})["data"]
        path.write_bytes(base64.b64decode(data))

    def close(self) -> None:
        try:
            self.call("Browser.close")
        except Exception:  # noqa: BLE001 (closing anyway)
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


def golden_adapter(wasm: str) -> int:
    if Path(wasm).resolve() != (ROOT / ".build/wasm/corelogic.wasm").resolve():
        raise SystemExit(f"browser.py: the page loads .build/wasm/corelogic.wasm, not {wasm}")
    server = serve(ROOT)
    browser = Browser()
    try:
        port = server.server_address[1]
        browser.open(f"http://127.0.0.1:{port}/bindings/web/test/golden_page.html", "document.title === 'ready'")
        stdin = sys.stdin.buffer
        while True:
            line = stdin.readline()
            if not line:
                return 0
            text = line.decode("utf-8").rstrip("\n")
            command, _, argument = text.partition(" ")
            payload = None
            if command in ("create", "send", "deliver"):
                argument, _, count = argument.rpartition(" ")
                payload = stdin.read(int(count) + 1)[:-1].decode("utf-8", errors="replace")
            reply = browser.evaluate(f"goldenReply({json.dumps(command)}, {json.dumps(argument)}, {json.dumps(payload)})")
            sys.stdout.write(reply + "\n")
            sys.stdout.flush()
    finally:
        browser.close()
        server.shutdown()


def demo(out: Path) -> int:
    sys.path.insert(0, str(ROOT / "Examples" / "web"))
    sys.path.insert(0, str(ROOT / "Examples" / "python"))
    import search_server
    from server import DemoServer

    out.mkdir(parents=True, exist_ok=True)
    server = DemoServer(latency=0.15).start()
    browser = Browser()
    failures = []
    checks = []

    def check(condition: bool, what: str) -> None:
        checks.append(what)
        print(("ok   " if condition else "FAIL ") + what)
        if not condition:
            failures.append(what)

    def expected(query: str) -> list:
        return [repo["name"] for repo in search_server.search(server.repos, query)[:10]]

    def view() -> dict:
        return browser.evaluate("""({
            names: [...document.querySelectorAll('#results li')].map((li) => li.firstChild.textContent),
            status: document.getElementById('status').textContent,
            loading: document.getElementById('status').dataset.loading,
            error: document.getElementById('status').dataset.error,
            query: document.getElementById('query').value })""")

    def wait_for(condition: str, timeout: float = 15.0) -> bool:
        try:
            browser.evaluate(f"""new Promise((resolve, reject) => {{
                const start = Date.now();
                (function poll() {{
                    const names = [...document.querySelectorAll('#results li')].map((li) => li.firstChild.textContent);
                    const status = document.getElementById('status');
                    if ({condition}) return resolve(true);
                    if (Date.now() - start > {int(timeout * 1000)}) return reject(new Error('timed out'));
                    setTimeout(poll, 20);
                }})();
            }})""")
            return True
        except RuntimeError:
            return False

    def type_text(text: str) -> None:
        browser.evaluate("document.getElementById('query').focus()")
        for char in text:
            browser.call("Input.insertText", {"text": char})

    try:
        page = f"{server.base_url}/Examples/web/search.html"
        browser.open(page, "document.documentElement.dataset.ready === 'true'")
        browser.evaluate("localStorage.clear()")
        browser.open(page, "document.documentElement.dataset.ready === 'true'")

        # Typed letter by letter: each keystroke is a new query; only the last one's page shows.
        type_text("swift")
        check(wait_for("status.dataset.loading === 'true'", 5), "typing shows the loading state")
        check(wait_for(f"names.length > 0 && status.dataset.loading === 'false'"), "the results arrive")
        shown = view()
        check(shown["names"] == expected("swift"), f"the list is the first page of the last query: {shown['names'][:3]}...")

        # A rate limit: the core waits Retry-After, then loads again on its own.
        type_text(" u")
        wait_for("names.length > 0 && status.dataset.loading === 'false'")
        journal = browser.evaluate("localStorage.getItem('corelogic.search.journal')") or ""
        records = [json.loads(line) for line in journal.strip().split(chr(10)) if line]
        check(len(records) == 7 and records[-1] == {"seq": 7, "send": {"queryChanged": {"text": "swift u"}}},
              f"localStorage holds a journal record per keystroke ({len(records)}), the last {records[-1] if records else None}")
        browser.call("Runtime.evaluate", {"expression": "fetch('/control/fail-next?kind=rate_limit&retry_after=0.4', {method: 'POST'})",
                                          "awaitPromise": True})
        type_text("i")
        check(wait_for("status.dataset.error === 'rateLimited'", 10), "a 403 shows the rate-limited state")
        check(wait_for("names.length > 0 && status.dataset.loading === 'false' && status.dataset.error === ''", 15),
              "after Retry-After the page loads without another keystroke")
        check(view()["names"] == expected("swift ui"), "the list is the retried query's page")

        # A dropped connection: offline, retried after a second.
        browser.call("Runtime.evaluate", {"expression": "fetch('/control/fail-next?kind=unavailable', {method: 'POST'})", "awaitPromise": True})
        browser.call("Input.insertText", {"text": "x"})
        check(wait_for("status.dataset.error === 'offline'", 10), "a failed request (503) shows the offline state")
        browser.call("Input.dispatchKeyEvent", {"type": "keyDown", "key": "Backspace", "code": "Backspace", "windowsVirtualKeyCode": 8})
        browser.call("Input.dispatchKeyEvent", {"type": "keyUp", "key": "Backspace", "code": "Backspace", "windowsVirtualKeyCode": 8})
        check(wait_for("names.length > 0 && status.dataset.loading === 'false' && status.dataset.error === ''", 15),
              "editing the query after the failure loads it")
        final = view()
        check(final["query"] == "swift ui" and final["names"] == expected("swift ui"),
              f"the latest query wins: {final['query']!r} shows its page")
        browser.screenshot(out / "search.png")

        # Reload: the journal in localStorage gives the same query back, and its page loads again.
        browser.open(page, "document.documentElement.dataset.ready === 'true'")
        check(wait_for("names.length > 0 && status.dataset.loading === 'false'", 15), "after a reload the page loads again")
        again = view()
        check(again["query"] == "swift ui" and again["names"] == expected("swift ui"),
              f"the restored query is the last one typed: {again['query']!r}")
        snapshot = json.loads(browser.evaluate("localStorage.getItem('corelogic.search.snapshot')") or "null")
        check(bool(snapshot) and snapshot.get("state", {}).get("query") == "swift ui" and snapshot.get("seq") == 10,
              f"leaving the page wrote a snapshot of the state at the journal's position ({snapshot and snapshot.get('seq')})")
    finally:
        browser.close()
        server.stop()
    print(f"screenshot: {out / 'search.png'}")
    print(f"demo-chromium: {len(checks) - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "golden-adapter":
        sys.exit(golden_adapter(sys.argv[2]))
    if len(sys.argv) == 3 and sys.argv[1] == "demo":
        sys.exit(demo(Path(sys.argv[2])))
    raise SystemExit(__doc__)
