"""``python -m corelogic``: tools around traces (docs/inspector.md).

    python -m corelogic inspect TRACE_OR_JOURNAL -o report.html [--diagram /phase]
    python -m corelogic record-golden TRACE --case NAME [--description TEXT] [--out Examples/Cookbook/golden]
    python -m corelogic diagram TRACE [--of query:NAME | /member] [--format dot|mermaid]
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

    args = parser.parse_args(argv)
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


if __name__ == "__main__":
    sys.exit(main())
