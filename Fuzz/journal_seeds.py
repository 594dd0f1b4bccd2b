"""Writes the journal seeds of the fuzz corpus (Fuzz/corpus/journal-*): real journal
directories, written by the library, packed into the fuzzer's journal input format
(Fuzz/InputFuzzer/JournalFuzz.swift):

    journal:<feature>\n<file name>\n<file bytes>\0<file name>\n<file bytes>\0...

Run from the repository after `make`:  python3 Fuzz/journal_seeds.py
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPOSITORY / "bindings" / "python"))

import corelogic  # noqa: E402

# (seed name, feature, durability, events before the checkpoint, events after it)
SEEDS = [
    ("journal-counter", "counter", corelogic.DURABILITY_EVERY_INPUT, ["increment"] * 2, ["decrement", "increment"]),
    ("journal-downloads", "downloads", corelogic.DURABILITY_INTERVAL,
     [{"enqueue": {"url": "a"}}, {"enqueue": {"url": "caf\u00e9"}}],
     [{"setMaxConcurrent": {"value": 1}}, {"failed": {"url": "a", "reason": "x"}}]),
    ("journal-search", "search", corelogic.DURABILITY_EVERY_INPUT,
     [{"queryChanged": {"text": "swift"}}], ["reachedBottom", {"queryChanged": {"text": "s\"q"}}]),
    ("journal-typeahead", "typeahead", corelogic.DURABILITY_INTERVAL,
     [{"textChanged": {"text": "dro"}}], [{"textChanged": {"text": "drop"}}]),
    ("journal-playcatch", "playcatch", corelogic.DURABILITY_EVERY_INPUT, ["humanThrows"], []),
]


def pack(feature: str, directory: Path) -> bytes:
    out = b"journal:" + feature.encode() + b"\n"
    for path in sorted(directory.iterdir()):
        if path.name == "lock":
            continue
        out += path.name.encode() + b"\n" + path.read_bytes() + b"\0"
    return out


def main() -> None:
    corpus = REPOSITORY / "Fuzz" / "corpus"
    for name, feature, durability, before, after in SEEDS:
        with tempfile.TemporaryDirectory() as scratch:
            directory = Path(scratch) / "journal"
            with corelogic.System(feature) as system:
                system.open_journal(directory, durability)
                for event in before:
                    system.send(event)
                if after:
                    system.checkpoint()
                for event in after:
                    system.send(event)
                # A delivery and a completion are journaled too, when there is an effect.
                running = system.effects
                if running:
                    system.complete(running[0]["id"])
            (corpus / name).write_bytes(pack(feature, directory))
            print(f"wrote {corpus / name}")


if __name__ == "__main__":
    main()
