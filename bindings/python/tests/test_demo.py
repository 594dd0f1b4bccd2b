"""The demo's search server, and the demo end to end on loopback."""

from __future__ import annotations

import asyncio
import builtins
import io
import json
import time
import urllib.error
import urllib.request

import pytest

import demo
from search_server import SearchServer, search


@pytest.fixture(scope="module")
def server():
    with SearchServer() as running:
        yield running


def get(url):
    with urllib.request.urlopen(url, timeout=5) as response:
        return response.status, response.headers, json.loads(response.read())


# -- the server -----------------------------------------------------------------


def test_the_data_set_has_at_least_a_thousand_distinct_repositories(server):
    names = [repo["name"] for repo in server.repos]
    assert len(names) >= 1000 and len(set(names)) == len(names)
    assert all(name.count("/") == 1 for name in names)


def test_pages_follow_link_headers_to_the_last_page(server):
    url = server.base_url + "/search/repositories?q=http&per_page=20"
    names, pages = [], 0
    while url:
        status, headers, body = get(url)
        assert status == 200
        names += [item["name"] for item in body["items"]]
        assert all(set(item) == {"id", "name", "stars"} for item in body["items"])
        url = demo.next_link(headers.get("Link"))
        pages += 1
    expected = [repo["name"] for repo in search(server.repos, "http")]
    assert names == expected and body["total_count"] == len(expected)
    assert pages == -(-len(expected) // 20)


def test_results_are_sorted_by_stars(server):
    _, _, body = get(server.base_url + "/search/repositories?q=swift&page=2&per_page=10")
    stars = [item["stars"] for item in body["items"]]
    assert len(stars) == 10 and stars == sorted(stars, reverse=True)


def test_a_rate_limit_fault_answers_403_with_retry_after(server):
    server.fail_next("rate_limit", retry_after=2.5)
    with pytest.raises(urllib.error.HTTPError) as caught:
        get(server.base_url + "/search/repositories?q=swift")
    assert caught.value.code == 403 and caught.value.headers["Retry-After"] == "2.5"
    assert get(server.base_url + "/search/repositories?q=swift")[0] == 200  # one request only


def test_a_drop_fault_closes_the_connection_without_an_answer(server):
    server.fail_next("drop")
    with pytest.raises((ConnectionError, urllib.error.URLError)):
        get(server.base_url + "/search/repositories?q=swift")


def test_bad_requests_are_refused(server):
    for path, code in [("/nowhere", 404), ("/search/repositories?q=", 422), ("/search/repositories?q=a&page=x", 422)]:
        with pytest.raises(urllib.error.HTTPError) as caught:
            get(server.base_url + path)
        assert caught.value.code == code


def test_the_async_client_reads_pages_and_reports_drops(server):
    async def main():
        status, headers, body = await demo.http_get(server.base_url + "/search/repositories?q=rust")
        server.fail_next("drop")
        with pytest.raises(ConnectionError):
            await demo.http_get(server.base_url + "/search/repositories?q=rust")
        return status, headers, json.loads(body)

    status, headers, body = asyncio.run(main())
    assert status == 200 and len(body["items"]) == 10
    assert "page=2" in demo.next_link(headers["link"])


# -- the demo ------------------------------------------------------------------


def test_the_scripted_demo_ends_with_six_pages_of_rust(library):
    out = io.StringIO()
    started = time.monotonic()
    state = asyncio.run(demo.run(latency=0.03, typing_delay=0.01, out=out, library=library.path))
    elapsed = time.monotonic() - started
    log = out.getvalue()
    expected = [
        {"id": repo["id"], "name": repo["name"], "stars": repo["stars"]}
        for repo in search(SearchServer().repos, "rust")[:60]
    ]
    assert state["query"] == "rust"
    assert state["items"] == expected
    assert "lastError" not in state and state["shouldLoadNextPage"] is False
    assert "page=7" in state["nextURL"]
    # Each chapter of the tour left its trace in the log.
    assert "cancel   #1 loadPage" in log
    assert "dropped (STALE)" in log
    assert "loadFailed rateLimited(retry after 0.5 s)" in log
    assert "loadFailed offline" in log
    assert log.count("-> retry") == 2
    assert elapsed < 15


def test_the_demo_command_exits_zero(library, capsys):
    assert demo.main(["--latency", "0.02", "--library", library.path]) == 0
    assert "60 repositories for 'rust'" in capsys.readouterr().out


def test_the_interactive_mode_types_and_scrolls(library, monkeypatch, capsys):
    lines = iter(["swift", "", "n", "q"])
    monkeypatch.setattr(builtins, "input", lambda prompt="": next(lines))
    state = asyncio.run(demo.run(latency=0.01, interactive_mode=True, out=io.StringIO(), library=library.path))
    assert state["query"] == "swift" and len(state["items"]) == 30
    out = capsys.readouterr().out
    assert "  30. " in out


def test_the_committed_data_set_is_what_make_repos_generates():
    import make_repos

    with open(make_repos.Path(make_repos.__file__).with_name("repos.json"), encoding="utf-8") as file:
        assert json.load(file) == make_repos.make_repos()
