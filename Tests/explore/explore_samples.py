"""A short exploration of every feature of a library with a fixed seed (make test):
repeatable, and failing on any broken invariant or rule of the engine.

    explore_samples.py --library LIB [--seed N] [--programs N] [--seconds S] [--golden-dir DIR]

With --seconds (make explore, EXPLORE_SECONDS) each feature is explored for that long,
round after round of seeds. A failure prints its explanation and the command that
replays its golden file, written under --golden-dir."""

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bindings" / "python"))
import corelogic  # noqa: E402
from corelogic.explore import explore  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--library", required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--programs", type=int, default=60)
    parser.add_argument("--seconds", type=float)
    parser.add_argument("--golden-dir", default=".build/explored")
    args = parser.parse_args()
    library = corelogic.Library(args.library)
    began = time.monotonic()
    failed = programs = steps = 0
    for description in library.features():
        name = description["name"]
        report = explore(name, library=library, seed=args.seed, programs=args.programs, seconds=args.seconds,
                         golden_dir=args.golden_dir)
        programs += report.programs
        steps += report.steps
        never = report.coverage.events_never
        print(f"explore {name}: {report.programs} programs, {report.steps} steps, {report.seconds:.1f} s, "
              f"{len(report.coverage.events) }/{len(report.coverage.event_cases)} event cases"
              + (f" (never: {', '.join(never)})" if never else "")
              + (": ok" if report.ok else ": FAILED"))
        if not report.ok:
            failed += 1
            print("  " + report.explanation())
    print(f"explore: {len(library.features())} features, {programs} programs, {steps} steps, "
          f"{time.monotonic() - began:.1f} s, seed {args.seed}, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
