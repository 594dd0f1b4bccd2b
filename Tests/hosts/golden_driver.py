#!/usr/bin/env python3
"""The golden driver: runs the golden files (docs/golden-files.md) through one host.

It reads every file, drives the host's adapter over the line protocol of
docs/golden-files.md ("The driver and the adapters") and compares what the host
reports with the file, in full mode and in patch mode. The adapter is a small
program over the host's public API (C ABI, Python, JVM, Node.js); everything
else (reading the files, comparing, patch-mode checks, update mode) is here, once.

    golden_driver.py --host NAME [--mode full|patch|both] [--update] [--edge]
                     [--every-feature] GOLDEN_DIR LIBRARY -- ADAPTER COMMAND...

The adapter is started as ``ADAPTER COMMAND... LIBRARY``. ``--edge`` checks the
verdicts of a directory of ``passes-*``/``fails-*`` files (Tests/hosts/golden-edge)
instead of requiring every file to pass. ``--update`` (or CORELOGIC_GOLDEN_UPDATE=1)
rewrites each file's expectations from what the host does now.
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import jsonpatch

MAX_DEPTH = 128
# --inexact-integers: the host's JSON numbers are doubles (Node.js's JSON.parse), so an
# integer beyond 2^53 it reads back equals the nearest double.
INEXACT_INTEGERS = False
ACTIONS = ("send", "sendRaw", "deliver", "complete", "query", "check")
# An error class name for each status, after lower-casing and dropping "Error"/"Exception".
CLASS_OF_STATUS = {"json": "json", "schema": "schema", "not_found": "notfound", "handle": "handle",
                   "arg": "argument", "io": "storage", "corrupt": "corrupt", "nomem": "outofmemory"}


class FileError(Exception):
    """The file cannot be run (malformed, or a step the host cannot perform)."""


class HostError(Exception):
    """The adapter broke the protocol or exited."""


# ---- reading a golden file strictly ------------------------------------------------

def _pairs(pairs: List[Tuple[str, Any]]) -> Dict[str, Any]:
    keys = [key for key, _ in pairs]
    duplicates = sorted({key for key in keys if keys.count(key) > 1})
    if duplicates:
        raise FileError(f"duplicate key {json.dumps(duplicates[0])}")
    return dict(pairs)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise FileError(f"number {text} is out of range")
    return value


def _check(value: Any, depth: int = 1) -> None:
    """Nesting within MAX_DEPTH, and every string valid Unicode (no lone surrogate)."""
    if isinstance(value, (dict, list)):
        if depth > MAX_DEPTH:
            raise FileError(f"nesting deeper than {MAX_DEPTH} levels")
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, item in items:
            if isinstance(key, str):
                _check(key)
            _check(item, depth + 1)
    elif isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise FileError("a string holds an unpaired surrogate escape") from None


def read_file(path: Path) -> Any:
    data = path.read_bytes()
    if data.startswith(b"\xef\xbb\xbf"):
        raise FileError("the file starts with a byte order mark")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise FileError(f"invalid UTF-8 at byte {error.start}") from None
    try:
        value = json.loads(text, object_pairs_hook=_pairs, parse_float=_float,
                           parse_constant=lambda name: _float(name))
    except json.JSONDecodeError as error:
        raise FileError(f"not JSON: {error}") from None
    except RecursionError:
        raise FileError(f"nesting deeper than {MAX_DEPTH} levels") from None
    _check(value)
    return value


def compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


# ---- the comparator ----------------------------------------------------------------

def difference(expected: Any, actual: Any, path: str = "$") -> Optional[str]:
    """The first difference, semantically: objects by key, numbers by value (integers
    exactly), booleans never numbers, a null member is not a missing one."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key in list(expected) + [key for key in actual if key not in expected]:
            if key not in actual:
                return f"{path}.{key}: expected {compact(expected[key])}, got nothing"
            if key not in expected:
                return f"{path}.{key}: expected nothing, got {compact(actual[key])}"
            found = difference(expected[key], actual[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(expected, list) and isinstance(actual, list):
        if len(expected) != len(actual):
            return f"{path}: expected {len(expected)} elements, got {len(actual)}: {compact(actual)}"
        for index, (left, right) in enumerate(zip(expected, actual)):
            found = difference(left, right, f"{path}[{index}]")
            if found:
                return found
        return None
    numbers = (int, float)
    if (isinstance(expected, numbers) and isinstance(actual, numbers)
            and not isinstance(expected, bool) and not isinstance(actual, bool)):
        if expected == actual or (INEXACT_INTEGERS and abs(expected) > 2 ** 53 and float(expected) == float(actual)):
            return None
        return f"{path}: expected {compact(expected)}, got {compact(actual)}"
    if type(expected) is type(actual) and expected == actual:
        return None
    return f"{path}: expected {compact(expected)}, got {compact(actual)}"


# ---- the adapter ---------------------------------------------------------------------

class Reply:
    def __init__(self, line: str) -> None:
        self.line = line
        word, _, rest = line.partition(" ")
        self.kind = word
        self.value: Any = None
        self.status, self.error_class, self.message = word, "", ""
        if word == "ok":
            self.value = json.loads(rest, object_pairs_hook=dict) if rest else None
        elif word == "error":
            self.status, _, rest = rest.partition(" ")
            self.error_class, _, self.message = rest.partition(" ")
        elif word not in ("stale", "none"):
            raise HostError(f"the adapter answered {line!r}")

    @property
    def golden_status(self) -> str:
        if self.kind == "error":
            return "error:" + self.status.replace("CORELOGIC_ERR_", "").lower()
        return self.kind


class Adapter:
    def __init__(self, command: List[str]) -> None:
        self.command = command
        self.process: Optional[subprocess.Popen] = None

    def start(self) -> None:
        if self.process is None or self.process.poll() is not None:
            self.process = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def call(self, line: str, payload: Optional[bytes] = None) -> Reply:
        self.start()
        assert self.process and self.process.stdin and self.process.stdout
        data = line.encode("utf-8")
        if payload is not None:
            data += b" %d\n" % len(payload) + payload
        try:
            self.process.stdin.write(data + b"\n")
            self.process.stdin.flush()
            answer = self.process.stdout.readline()
        except BrokenPipeError:
            answer = b""
        if not answer:
            code = self.process.wait()
            self.process = None
            raise HostError(f"the adapter exited ({code}) on {line!r}")
        return Reply(answer.decode("utf-8").rstrip("\n"))

    def stop(self) -> int:
        """Ends the adapter; its exit status (valgrind's, when it runs under valgrind)."""
        code = 0
        if self.process is not None:
            self.process.stdin.close()  # type: ignore[union-attr]
            code = self.process.wait()
            self.process = None
        return code


# ---- one file ------------------------------------------------------------------------

def effect_id(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2 ** 64:
        raise FileError("expected an effect id (a non-negative integer below 2^64)")
    return value


def name_argument(value: Any, what: str) -> str:
    if not isinstance(value, str) or "\n" in value or not value:
        raise FileError(f"{what} takes a name")
    return value


def perform(adapter: Adapter, action: str, argument: Any) -> Reply:
    if action == "send":
        return adapter.call("send", compact(argument).encode("utf-8"))
    if action == "sendRaw":
        if not isinstance(argument, str):
            raise FileError("sendRaw takes a string")
        return adapter.call("send", argument.encode("utf-8"))
    if action == "deliver":
        if not isinstance(argument, dict):
            raise FileError("deliver takes {\"effect\": id, \"event\": ...}")
        effect = effect_id(argument.get("effect"))
        if "raw" in argument:
            if not isinstance(argument["raw"], str):
                raise FileError("\"raw\" takes a string")
            return adapter.call(f"deliver {effect}", argument["raw"].encode("utf-8"))
        if "event" not in argument:
            raise FileError("deliver needs \"event\" or \"raw\"")
        return adapter.call(f"deliver {effect}", compact(argument["event"]).encode("utf-8"))
    if action == "complete":
        effect = effect_id(argument.get("effect") if isinstance(argument, dict) else argument)
        return adapter.call(f"complete {effect}")
    if action == "query":
        return adapter.call("query " + name_argument(argument, "query"))
    if action == "check":
        return adapter.call("check")
    raise FileError(f"unknown action {action!r}; actions: {', '.join(ACTIONS)}")


def ok_value(reply: Reply, what: str) -> Any:
    if reply.kind != "ok":
        raise FileError(f"{what}: {reply.golden_status} {reply.message}".rstrip())
    return reply.value


class Run:
    """One file through one adapter in one mode."""

    def __init__(self, adapter: Adapter, scenario: Any, mode: str, features: Dict[str, List[str]]) -> None:
        self.adapter, self.scenario, self.mode, self.features = adapter, scenario, mode, features
        self.failures: List[str] = []
        self.updated: Any = None
        self.not_updatable = ""

    def fail(self, line: str) -> None:
        self.failures.append(line)

    def run(self) -> None:
        scenario = self.scenario
        if not isinstance(scenario, dict):
            raise FileError("the file is not a JSON object")
        feature = scenario.get("feature")
        steps = scenario.get("steps")
        if not isinstance(feature, str):
            raise FileError("missing \"feature\"")
        if not isinstance(steps, list):
            raise FileError("missing \"steps\" array")
        name_argument(feature, "feature")
        created = self.adapter.call("create " + feature, compact(scenario.get("state")).encode("utf-8"))
        if created.kind != "ok":
            raise FileError(f"creation: {created.golden_status}: {created.message}")
        try:
            self.steps(scenario, steps, created.value)
        finally:
            self.adapter.call("free")

    def steps(self, scenario: Dict[str, Any], steps: List[Any], initial: Dict[str, Any]) -> None:
        updated = copy.deepcopy(scenario)
        actual_initial = {"state": initial.get("state"), "effects": initial.get("effects", [])}
        if "expectInitial" in scenario:
            expected = scenario["expectInitial"]
            for key in ("state", "effects"):
                if isinstance(expected, dict) and key in expected:
                    found = difference(expected[key], actual_initial[key], f"$.{key}")
                    if found:
                        self.fail(f"expectInitial: {found}")
            updated["expectInitial"] = actual_initial
        previous: Dict[str, Any] = {}
        if self.mode == "patch":
            baseline = ok_value(self.adapter.call("output patch"), "output patch")
            names = self.features.get(scenario["feature"], [])
            values = ok_value(self.adapter.call("watch " + compact(names)), "watch")
            previous = {"revision": baseline["revision"], "state": baseline["state"], "queries": values}
            if baseline["revision"] != 0:
                self.fail(f"revision {baseline['revision']} right after creation")
            self.check_mirror(previous, "after output patch")
        for number, step in enumerate(steps, start=1):
            if not isinstance(step, dict) or not step:
                raise FileError(f"step {number}: not an object whose first key is the action")
            action = next(iter(step))
            where = f"step {number} ({action})"
            expect = step.get("expect", {})
            if not isinstance(expect, dict):
                raise FileError(f"{where}: expect is not an object")
            before = ok_value(self.adapter.call("state"), "state")
            try:
                reply = perform(self.adapter, action, step[action])
            except FileError as error:
                raise FileError(f"{where}: {error}") from None
            status = reply.golden_status
            if expect.get("status") in ("ok", "stale") and status.startswith("error:"):
                self.not_updatable = f"{where} no longer decodes: {reply.message}"
            rewritten: Dict[str, Any] = {"status": status}
            if "status" in expect:
                found = difference(expect["status"], status, "status")
                if found:
                    detail = f": {reply.message}" if reply.message else ""
                    self.fail(f"{where}: {found}{detail}")
                    updated["steps"][number - 1]["expect"] = rewritten
                    continue
            if reply.kind == "error":
                wanted = CLASS_OF_STATUS.get(status[len("error:"):])
                got = reply.error_class.lower().replace("error", "").replace("exception", "")
                if reply.error_class != "-" and got != wanted:
                    self.fail(f"{where}: error class {reply.error_class} for {reply.status}")
                if "error" in expect:
                    rewritten["error"] = expect["error"]
                    if not isinstance(expect["error"], str) or expect["error"] not in reply.message:
                        self.fail(f"{where}: error: expected a message containing "
                                  f"{compact(expect['error'])}, got {compact(reply.message)}")
            if reply.kind != "ok":
                after = ok_value(self.adapter.call("state"), "state")
                if compact(after) != compact(before):
                    self.fail(f"{where}: the state changed on a {status} input")
                updated["steps"][number - 1]["expect"] = rewritten
                continue
            if action == "check":
                # The invariants that must hold are the file's to say, never the
                # library's: update mode keeps the expectation as written.
                rewritten = dict(expect)
                if "value" in expect:
                    found = difference(expect["value"], reply.value, "$.value")
                    if found:
                        broken = "; ".join(f"{item.get('name')}: {item.get('message')}" for item in reply.value
                                           if isinstance(item, dict)) if isinstance(reply.value, list) else ""
                        self.fail(f"{where}: {found}" + (f" (broken invariants: {broken})" if broken else ""))
                updated["steps"][number - 1]["expect"] = rewritten
                continue
            if action == "query":
                rewritten["value"] = reply.value
                if "value" in expect:
                    found = difference(expect["value"], reply.value, "$.value")
                    if found:
                        self.fail(f"{where}: {found}")
                updated["steps"][number - 1]["expect"] = rewritten
                continue
            batch = reply.value
            if self.mode == "patch":
                batch = dict(batch, state=self.advance(batch, previous, where))
            rewritten["state"] = batch.get("state")
            rewritten["effects"] = batch.get("effects", [])
            if batch.get("steps", 1) != 1:
                rewritten["steps"] = batch["steps"]
            for key in ("state", "effects", "steps"):
                if key in expect:
                    found = difference(expect[key], batch.get(key), f"$.{key}")
                    if found:
                        self.fail(f"{where}: {found}")
            updated["steps"][number - 1]["expect"] = rewritten
        if self.mode == "patch":
            state = ok_value(self.adapter.call("state"), "state")
            found = difference(state, previous["state"])
            if found:
                self.fail(f"at the end the mirror differs from the state: {found}")
        self.updated = None if self.not_updatable else updated

    def check_mirror(self, previous: Dict[str, Any], where: str) -> None:
        reply = self.adapter.call("mirror")
        if reply.kind == "none":
            return
        mirror = ok_value(reply, "mirror")
        if mirror.get("revision") != previous["revision"]:
            self.fail(f"{where}: the mirror is at revision {mirror.get('revision')}, expected {previous['revision']}")
        found = difference(previous["state"], mirror.get("state"), "$.mirror")
        if found:
            self.fail(f"{where}: {found}")

    def advance(self, batch: Dict[str, Any], previous: Dict[str, Any], where: str) -> Any:
        """Patch mode: the batch carries the whole state, or a patch that continues from
        the previous revision and applies (by an independent RFC 6902 applier) to the
        previous state; either agrees with the host's mirror, and the batch names
        exactly the watched queries that changed."""
        steps = batch.get("steps", 1)
        if ("state" in batch) == ("patch" in batch):
            self.fail(f"{where}: a patch-mode batch carries either \"state\" or \"patch\": {compact(sorted(batch))}")
        if "base" in batch and batch["base"] != previous["revision"]:
            self.fail(f"{where}: base {batch['base']}, expected {previous['revision']}")
        if batch.get("revision") != previous["revision"] + steps:
            self.fail(f"{where}: revision {batch.get('revision')} after {steps} steps from {previous['revision']}")
        if "state" in batch:
            state = batch["state"]
        else:
            try:
                state = jsonpatch.apply_patch(previous["state"], batch.get("patch", []))
            except (jsonpatch.JsonPatchException, jsonpatch.JsonPointerException) as error:
                self.fail(f"{where}: the patch does not apply: {error}")
                state = ok_value(self.adapter.call("state"), "state")
        previous.update(revision=batch.get("revision"), state=state)
        self.check_mirror(previous, where)
        current = {name: ok_value(self.adapter.call("query " + name), "query") for name in previous["queries"]}
        changed = {name: value for name, value in current.items() if difference(previous["queries"][name], value)}
        if difference(changed, batch.get("queries", {})):
            self.fail(f"{where}: queries: expected the changed ones {compact(changed)}, "
                      f"got {compact(batch.get('queries'))}")
        previous["queries"] = current
        return state


def pretty(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2) + "\n"


# ---- the run ---------------------------------------------------------------------------

def comparisons(directory: Path) -> Tuple[int, int]:
    path = directory / "comparisons.json"
    if not path.exists():
        return 0, 0
    passed = failed = 0
    for case in json.loads(path.read_text(encoding="utf-8"))["cases"]:
        found = difference(case["expected"], case["actual"])
        ok = (found is None) == case["equal"] and ("path" not in case or (found or "").startswith(case["path"] + ":"))
        if ok:
            passed += 1
        else:
            failed += 1
            print(f"FAIL comparisons.json: {case['rule']}: {found}")
    return passed, failed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", required=True, help="the name in the summary lines: golden-<host>")
    parser.add_argument("--mode", choices=("full", "patch", "both"), default="both")
    parser.add_argument("--update", action="store_true", default=os.environ.get("CORELOGIC_GOLDEN_UPDATE") == "1")
    parser.add_argument("--edge", action="store_true", help="passes-* must pass and fails-* must fail")
    parser.add_argument("--inexact-integers", action="store_true",
                        help="the host reads JSON numbers as doubles: integers beyond 2^53 compare as doubles")
    parser.add_argument("--every-feature", action="store_true", help="every feature of the library has files")
    parser.add_argument("directory", type=Path)
    parser.add_argument("library")
    parser.add_argument("adapter", nargs="+")
    args = parser.parse_args()

    files = sorted(args.directory.glob("*/*.json"))
    adapter = Adapter(args.adapter + [args.library])
    features_reply = adapter.call("features")
    features = {feature["name"]: list(feature.get("queries", [])) for feature in ok_value(features_reply, "features")}
    status = 0
    passed, failed = comparisons(args.directory)
    if passed or failed:
        print(f"comparisons-{args.host}: {passed} passed, {failed} failed")
        status |= failed > 0
    global INEXACT_INTEGERS  # after the comparator's own cases, which are exact
    INEXACT_INTEGERS = args.inexact_integers
    if args.every_feature:
        missing = sorted(set(features) - {path.parent.name for path in files})
        if missing:
            print(f"FAIL features without golden files: {', '.join(missing)}")
            status = 1
    modes = ["full"] if args.update else (["full", "patch"] if args.mode == "both" else [args.mode])
    for mode in modes:
        passed = failed = 0
        suffix = "" if mode == "full" else "-patch"
        label = "" if mode == "full" else " (patch mode)"
        for path in files:
            name = path.relative_to(args.directory).as_posix()
            run: Optional[Run] = None
            try:
                run = Run(adapter, read_file(path), mode, features)
                run.run()
                failures = run.failures
            except FileError as error:
                failures = (run.failures if run else []) + [str(error)]
                if run:
                    run.updated = None
            except HostError as error:
                failures = [str(error)]
            if args.edge:
                should_pass = path.name.startswith("passes-")
                if should_pass == (not failures):
                    print(f"{'passes' if should_pass else 'fails'} {name}{label}: as named"
                          + (f" ({failures[0]})" if failures else ""))
                    passed += 1
                else:
                    print(f"FAIL {name}{label}: named {'passes' if should_pass else 'fails'}-*, but it "
                          + ("failed: " + failures[0] if failures else "passed"))
                    failed += 1
                continue
            for failure in failures:
                print(f"FAIL {name}{label}: {failure}")
            passed, failed = passed + (not failures), failed + bool(failures)
            if args.update:
                if run is None or run.updated is None:
                    reason = run.not_updatable if run and run.not_updatable else (failures[-1] if failures else "")
                    print(f"NOT UPDATED {name}: {reason}")
                elif pretty(run.updated) != path.read_text(encoding="utf-8"):
                    path.write_text(pretty(run.updated), encoding="utf-8")
                    print(f"updated {name}")
        kind = "edge" if args.edge else "golden"
        print(f"{kind}-{args.host}{suffix}: {passed} passed, {failed} failed")
        status |= failed > 0 and not args.update
    code = adapter.stop()
    if code:
        print(f"FAIL the {args.host} adapter exited with status {code}")
        status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
