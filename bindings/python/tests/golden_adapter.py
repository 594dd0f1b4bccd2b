"""The Python golden adapter: the driver's line protocol (docs/golden-files.md) over
the public ``corelogic`` package. Usage: golden_adapter.py [LIBRARY]."""

import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import corelogic  # noqa: E402

library = corelogic.load_library(sys.argv[1] if len(sys.argv) > 1 else os.environ.get("CORELOGIC_LIBRARY"))
stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
system = mirror = None


def reply(text):
    stdout.write(text.encode("utf-8") + b"\n")
    stdout.flush()


def batch(result):
    if result is corelogic.STALE:
        return "stale"
    out = {"effects": result.effects, "steps": result.steps, "queries": result.queries}
    if result.revision is not None:  # patch mode: a patch, or a small state sent whole
        global mirror
        mirror = result.state
        out["revision"] = result.revision
    if result.patch is None:
        out["state"] = result.state
    else:
        out["patch"] = result.patch
    return "ok " + json.dumps(out)


for line in stdin:
    command, *words = line.decode("utf-8").rstrip("\n").split(" ")
    payload = stdin.read(int(words.pop()) + 1)[:-1] if command in ("create", "send", "deliver") else None
    try:
        if command == "features":
            reply("ok " + json.dumps(corelogic.features(library)))
        elif command == "create":
            system = corelogic.System(words[0], None if payload == b"null" else payload, library=library)
            reply(batch(system.initial_batch))
        elif command == "output":
            system.set_output(words[0])
            mirror = system.resync()
            reply("ok " + json.dumps({"revision": system.revision, "state": mirror}))
        elif command == "watch":
            reply("ok " + json.dumps(system.watch(*json.loads(" ".join(words)))))
        elif command == "send":
            reply(batch(system.send(payload)))
        elif command == "deliver":
            reply(batch(system.deliver(int(words[0]), payload)))
        elif command == "complete":
            reply(batch(system.complete(int(words[0]))))
        elif command == "query":
            reply("ok " + json.dumps(system.query(" ".join(words))))
        elif command == "check":
            reply("ok " + json.dumps(system.check()))
        elif command == "state":
            reply("ok " + system.state_json.decode("utf-8"))
        elif command == "mirror":  # in patch mode a batch's state is the system's mirror
            reply("ok " + json.dumps({"revision": system.revision, "state": mirror}) if system.output == "patch" else "none")
        elif command == "free":
            system.close()
            reply("ok")
        else:
            reply(f"error CORELOGIC_ERR_ARG - unknown command {command}")
    except corelogic.CorelogicError as error:
        message = " ".join(error.message.splitlines())
        reply(f"error {error.status_name} {type(error).__name__} {message}")
