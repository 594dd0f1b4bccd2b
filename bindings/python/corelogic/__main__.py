"""``python -m corelogic``: tools around traces (docs/inspector.md).

    python -m corelogic inspect TRACE_OR_JOURNAL -o report.html [--diagram /phase]
    python -m corelogic record-golden TRACE --case NAME [--description TEXT] [--out Examples/Cookbook/golden]
    python -m corelogic diagram TRACE [--of query:NAME | /member] [--format dot|mermaid]
    python -m corelogic explore FEATURE [--seed N] [--programs N | --seconds S] [--golden-dir DIR]
                                        [--diagram query:NAME | /member] [--json FILE]

``explore`` exits 0 when nothing broke, 1 when a program broke an invariant or a
rule of the engine (the shrunk program is written as a golden file), 2 on a usage
or library error (docs/testing.md, "Exploring a feature").
"""

from __future__ import annotations

import argparse
import sys
from typing import List, Optional

from .errors import CorelogicError
from .golden import GoldenError, record_golden
from .inspector import state_diagram, write_report
from .trace import Trace, TraceError, load


def _load(path: str, feature: Optional[str], library: Optional[str]) -> Trace:
    trace = load(path, feature, library=library)
    for problem in trace.problems:
        print(f"warning: {problem}: line skipped", file=sys.stderr)
    return trace


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m corelogic", description="Tools around corelogic traces.")
    parser.add_argument("--library", help="path to libcorelogic (default: the usual search)")
    commands = parser.add_subparsers(dest="command", required=True)

    inspect = commands.add_parser("inspect", help="write the inspector page of a trace or journal directory")
    inspect.add_argument("trace", help="a trace file (JSON lines) or a journal directory")
    inspect.add_argument("-o", "--output", required=True, help="the HTML file to write")
    inspect.add_argument("--feature", help="refuse a trace of another feature")
    inspect.add_argument("--diagram", help="what the state diagram shows first: query:NAME or a state member such as /phase")
    inspect.add_argument("--title", help="the page's title")

    golden = commands.add_parser("record-golden", help="turn a recorded session into a golden file")
    golden.add_argument("trace", help="a trace file or journal directory")
    golden.add_argument("--case", required=True, help="the case name: the file is <out>/<feature>/<case>.json")
    golden.add_argument("--description", help="the rule the session proves (recommended)")
    golden.add_argument("--out", default="Examples/Cookbook/golden", help="the golden directory (default: Examples/Cookbook/golden)")
    golden.add_argument("--feature", help="refuse a trace of another feature")
    golden.add_argument("--force", action="store_true", help="overwrite an existing file")

    diagram = commands.add_parser("diagram", help="print a state diagram of a session as DOT or Mermaid")
    diagram.add_argument("trace", help="a trace file or journal directory")
    diagram.add_argument("--of", help="query:NAME or a state member such as /phase (default: the first recorded query)")
    diagram.add_argument("--format", choices=("dot", "mermaid"), default="dot")
    diagram.add_argument("--feature", help="refuse a trace of another feature")

    explore = commands.add_parser("explore", help="explore a feature with generated programs; shrink a failure to a golden file")
    explore.add_argument("feature", help="the feature's name in the library")
    explore.add_argument("--library", default=argparse.SUPPRESS,
                         help="path to the app's library (also accepted before the command)")
    explore.add_argument("--seed", type=int, default=0, help="the seed (default 0): the same seed explores the same programs")
    explore.add_argument("--programs", type=int, default=1000, help="programs per round (default 1000)")
    explore.add_argument("--seconds", type=float, help="run rounds with seeds SEED, SEED+1, ... for this long")
    explore.add_argument("--max-steps", type=int, default=40, help="the longest program (default 40)")
    explore.add_argument("--no-restores", action="store_true", help="never restore from the journal")
    explore.add_argument("--diagram", help="coverage of a state diagram: query:NAME or a state member such as /phase")
    explore.add_argument("--golden-dir", default="explored-golden",
                         help="where the golden file of a failure goes: DIR/FEATURE/CASE.json (default explored-golden)")
    explore.add_argument("--case", help="the golden file's name (default explored-RULE-seedN)")
    explore.add_argument("--json", help="also write the report as JSON to this file")

    args = parser.parse_args(argv)
    if args.command == "explore":
        return _explore(args)
    try:
        trace = _load(args.trace, args.feature, args.library)
        if args.command == "inspect":
            write_report(trace, args.output, diagram=args.diagram, title=args.title)
            stale = sum(1 for step in trace.steps if step.status == "stale")
            print(f"wrote {args.output}: {len(trace.steps)} steps ({stale} stale), {len(trace.problems)} unreadable line(s)")
        elif args.command == "record-golden":
            path = record_golden(trace, args.case, description=args.description, directory=args.out,
                                 overwrite=args.force, library=args.library)
            print(f"wrote {path}: {len(trace.steps)} steps")
        else:
            drawn = state_diagram(trace, args.of)
            sys.stdout.write(drawn.to_dot() if args.format == "dot" else drawn.to_mermaid())
    except (TraceError, GoldenError, CorelogicError, ValueError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


def _explore(args: argparse.Namespace) -> int:
    import json

    from .explore import explore

    try:
        report = explore(args.feature, library=args.library, seed=args.seed, programs=args.programs,
                         seconds=args.seconds, max_steps=args.max_steps, restores=not args.no_restores,
                         diagram=args.diagram, golden_dir=args.golden_dir, case=args.case,
                         progress=lambda line: print(line, file=sys.stderr))
    except (CorelogicError, ValueError, OSError, ImportError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(report.explanation())
    print(report.coverage.text())
    if report.failure is not None and report.golden_path is not None:
        print(f"replay: {report.command}")
    print(f"explored {report.programs} programs ({report.steps} steps) in {report.seconds:.1f} s, seed {report.seed}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({"feature": report.feature, "seed": report.seed, "programs": report.programs,
                       "steps": report.steps, "seconds": report.seconds,
                       "failure": None if report.failure is None else vars(report.failure),
                       "program": None if report.program is None else [list(map(repr, s)) for s in report.program],
                       "golden": report.golden_path, "explanation": report.explanation(),
                       "coverage": report.coverage.to_json()}, out, indent=2, ensure_ascii=False, default=repr)
    return 0 if report.failure is None else 1


if __name__ == "__main__":
    sys.exit(main())
