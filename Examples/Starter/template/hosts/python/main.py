"""{{Name}} from Python: the save effect performed by a handler, its answer fed back.

Run with `make run-python` (it sets CORELOGIC_LIBRARY to lib{{name}}.so).
"""

import corelogic


def main() -> None:
    with corelogic.System("{{name}}") as system:
        system.send({"add": {"text": "milk"}})
        batch = system.send("save")
        (start,) = batch.started
        print("save requested:", start["request"])
        # The host performs the effect (here: nothing to store), then answers it.
        batch = system.deliver(start["id"], "saved")
        print("state:", batch.state)
        assert batch.state == {"items": ["milk"], "saving": False}
        assert "{{name}}" in [feature["name"] for feature in corelogic.load_library().features()]


if __name__ == "__main__":
    main()
