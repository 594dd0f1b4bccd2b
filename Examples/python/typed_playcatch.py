"""Playing catch with the machine, typed: events, state and requests are classes
generated from the feature's schema (``generated/playcatch.py``), so mypy checks
every event this host builds and every member it reads.

    python3 Examples/python/typed_playcatch.py [--throws N]

The human throws; the feature asks for a timer (``throwTimer``); when it fires the
machine throws back. ``make test`` runs this program and checks it with
``mypy --strict``; regenerate the types with ``make typegen-examples``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import List, Optional

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "bindings" / "python"))
sys.path.insert(0, str(HERE))

import corelogic  # noqa: E402
from generated.playcatch import Event, Feedbacks, Playcatch, Queries, State, TimerRequest  # noqa: E402

#: One second of the feature's timer lasts this long here, so the tour is quick.
SECOND = 0.01


def play(throws: int) -> List[State]:
    """Throws the ball ``throws`` times and returns the state after each catch."""
    states: List[State] = []
    with corelogic.System("playcatch") as system, corelogic.ThreadRunner(system) as runner:

        @runner.effect(Feedbacks.THROW_TIMER, request=TimerRequest)
        def throw_timer(request: TimerRequest) -> Event:
            time.sleep(request.seconds * SECOND)
            return Playcatch.MachineThrows()

        runner.start()
        for number in range(1, throws + 1):
            runner.send(Playcatch.HumanThrows())
            print(f"throw {number}: the machine holds the ball: {Queries.holder(system.query(Queries.HOLDER))}")
            runner.run_until(lambda state: State.from_json(state).throwCount == 2 * number, timeout=10)
            state = system.state_as(State)
            print(f"  caught: {state.ball} holds it after {state.throwCount} throws")
            states.append(state)
    return states


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--throws", type=int, default=3)
    args = parser.parse_args(argv)
    states = play(args.throws)
    ok = all(state.ball == "human" for state in states) and states[-1].throwCount == 2 * args.throws
    print("ok" if ok else "unexpected states")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
