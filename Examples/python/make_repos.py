"""Generate repos.json, the demo search server's data set.

Deterministic: the same script writes the same file on every machine, so the
file is committed and only regenerated when this script changes.

    python3 Examples/python/make_repos.py
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, Dict, List, Set

COUNT = 1200
SEED = 20261122

OWNERS = [
    "apple", "swiftlang", "vapor", "pointfreeco", "realm", "alamofire", "kean", "onevcat",
    "rust-lang", "tokio-rs", "serde-rs", "BurntSushi", "dtolnay", "golang", "kubernetes",
    "hashicorp", "python", "pallets", "psf", "encode", "tiangolo", "django", "numpy",
    "facebook", "google", "microsoft", "mozilla", "nodejs", "denoland", "vercel", "sveltejs",
    "torvalds", "sqlite", "redis", "postgres", "duckdb", "apache", "elastic", "grafana",
    "ReactiveX", "RxSwiftCommunity", "airbnb", "square", "uber", "lyft", "shopify", "stripe",
    "kotlin", "JetBrains", "android", "flutter", "dart-lang", "zig-lang", "ziglang", "nim-lang",
    "ocaml", "haskell", "elixir-lang", "erlang", "clojure", "scala", "typelevel", "akka",
]

LANGUAGES = ["swift", "rust", "go", "python", "kotlin", "typescript", "c", "zig", "haskell", "elixir"]

TOPICS = [
    "http", "json", "async", "cli", "parser", "logging", "testing", "orm", "graphql", "grpc",
    "cache", "crypto", "image", "markdown", "regex", "router", "server", "client", "sdk",
    "ui", "charts", "animation", "network", "database", "queue", "scheduler", "config",
    "metrics", "tracing", "storage", "sync", "search", "compiler", "lint", "format", "docs",
]

SUFFIXES = ["", "-kit", "-core", "-lite", "-rs", "-swift", "-py", "-go", "x", "-utils", "-next"]

ADJECTIVES = ["fast", "tiny", "modern", "type-safe", "zero-copy", "composable", "minimal", "robust", "pure"]


def make_repos(count: int = COUNT, seed: int = SEED) -> List[Dict[str, Any]]:
    """Return ``count`` repositories: ``{"id", "name", "stars", "description", "language"}``."""
    rng = random.Random(seed)
    names: Set[str] = set()
    repos: List[Dict[str, Any]] = []
    while len(repos) < count:
        owner = rng.choice(OWNERS)
        language = rng.choice(LANGUAGES)
        topic = rng.choice(TOPICS)
        style = rng.random()
        if style < 0.4:
            name = f"{language}-{topic}"
        elif style < 0.7:
            name = f"{topic}{rng.choice(SUFFIXES)}"
        else:
            name = f"{rng.choice(TOPICS)}-{topic}{rng.choice(SUFFIXES)}"
        full = f"{owner}/{name}"
        if full in names:
            continue
        names.add(full)
        # Stars follow a long tail, as on the real site.
        stars = int(rng.paretovariate(1.1) * 40) - 40 + rng.randrange(0, 30)
        description = f"A {rng.choice(ADJECTIVES)} {topic} library for {language.capitalize()}"
        repos.append({
            "id": len(repos) + 1,
            "name": full,
            "stars": max(0, min(stars, 250_000)),
            "description": description,
            "language": language,
        })
    return repos


def main() -> None:
    path = Path(__file__).with_name("repos.json")
    repos = make_repos()
    lines = ",\n".join(json.dumps(repo, separators=(",", ":")) for repo in repos)
    path.write_text("[\n" + lines + "\n]\n", encoding="utf-8")
    print(f"wrote {len(repos)} repositories to {path}")


if __name__ == "__main__":
    main()
