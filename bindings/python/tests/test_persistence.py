"""Persistence: journals, checkpoints and restore (docs/persistence.md)."""

from __future__ import annotations

import errno
import os

import pytest

import corelogic


def urls(batch):
    return [start["request"]["url"] for start in batch.started]


def segment(directory):
    names = sorted(name for name in os.listdir(directory) if name.startswith("journal-"))
    return directory / names[-1]


def two_increments(library, directory):
    """A counter journal in ``directory`` of two increments; the path of its segment."""
    with corelogic.System("counter", library=library) as counter:
        counter.open_journal(directory)
        counter.send("increment")
        counter.send("increment")
    return segment(directory)


def test_a_journaled_system_restores_its_state_and_restarts_its_effects(library, tmp_path):
    directory = tmp_path / "downloads"
    with corelogic.System("downloads", {"maxConcurrent": 2, "pending": [], "finished": [], "failed": []},
                          library=library) as system:
        system.open_journal(directory)
        system.send({"enqueue": {"url": "a"}})
        system.send({"enqueue": {"url": "b"}})
        system.send({"enqueue": {"url": "c"}})
        assert system.deliver(1, {"finished": {"url": "a"}}).state["finished"] == ["a"]
        assert system.deliver(1, {"finished": {"url": "a"}}) is corelogic.STALE  # never journaled
        before = system.state
        seen = max(effect["id"] for effect in system.effects)

    with corelogic.System.restore("downloads", directory, library=library) as restored:
        assert restored.state == before
        assert urls(restored.initial_batch) == ["b", "c"]
        assert min(start["id"] for start in restored.initial_batch.started) > seen
        report = restored.restore_report
        assert report["snapshot"] is True
        assert (report["seq"], report["replayed"], report["tornTail"]) == (4, 4, None)
        assert report["durability"] == "every-input"
        # The restored system keeps journaling into the same directory.
        restored.send({"cancel": {"url": "c"}})
        after = restored.state

    with corelogic.System.restore("downloads", str(directory), library=library) as again:
        assert again.state == after
        assert again.restore_report["seq"] == 5


def test_restore_starts_the_same_effects_as_a_fresh_system_of_that_state(library, tmp_path):
    with corelogic.System("search", library=library) as system:
        system.open_journal(tmp_path / "search")
        system.send({"queryChanged": {"text": "swift"}})
    with corelogic.System.restore("search", tmp_path / "search", library=library) as restored:
        with corelogic.System("search", restored.state, library=library) as fresh:
            strip = [dict(start, id=0) for start in restored.initial_batch.started]
            assert strip == [dict(start, id=0) for start in fresh.initial_batch.started]
            assert strip, "a typed query asks for its first page"


def test_checkpoint_leaves_only_the_inputs_after_it_to_replay(library, tmp_path):
    with corelogic.System("counter", library=library) as counter:
        counter.open_journal(tmp_path / "c", durability=corelogic.DURABILITY_INTERVAL)
        for _ in range(5):
            counter.send("increment")
        counter.checkpoint()
        counter.send("decrement")
        counter.sync_journal()
    with corelogic.System.restore("counter", tmp_path / "c", library=library) as restored:
        assert restored.state == {"count": 4}
        assert (restored.restore_report["seq"], restored.restore_report["replayed"]) == (6, 1)
        assert restored.restore_report["durability"] == "interval"


def test_close_journal_stops_journaling_and_releases_the_directory(library, tmp_path):
    with corelogic.System("counter", library=library) as counter:
        counter.open_journal(tmp_path / "c")
        counter.send("increment")
        with pytest.raises(corelogic.StorageError, match="in use"):
            corelogic.System.restore("counter", tmp_path / "c", library=library)
        counter.close_journal()
        counter.close_journal()  # nothing open: no error
        counter.send("increment")  # not journaled
        with corelogic.System.restore("counter", tmp_path / "c", library=library) as restored:
            assert restored.state == {"count": 1}


def test_an_empty_directory_restores_the_initial_state(library, tmp_path):
    with corelogic.System.restore("counter", tmp_path, library=library) as restored:
        assert restored.state == {"count": 0}
        assert restored.restore_report["snapshot"] is False
        assert restored.initial_batch.steps == 0


def test_a_missing_directory_is_a_storage_error(library, tmp_path):
    with pytest.raises(corelogic.StorageError, match="no journal directory") as caught:
        corelogic.System.restore("counter", tmp_path / "missing", library=library)
    assert caught.value.status == corelogic.errors.ERR_IO


def test_a_file_system_failure_is_an_os_error_with_its_errno(library, tmp_path):
    (tmp_path / "file").write_text("")
    with corelogic.System("counter", library=library) as counter:
        with pytest.raises(OSError) as caught:
            counter.open_journal(tmp_path / "file" / "journal")
    assert isinstance(caught.value, corelogic.StorageError)
    assert caught.value.errno == errno.ENOTDIR
    assert str(tmp_path / "file" / "journal") in caught.value.message


def test_a_torn_last_record_is_reported_and_left_out(library, tmp_path):
    path = two_increments(library, tmp_path / "c")
    data = path.read_bytes()
    path.write_bytes(data[:-7])  # a crash in the middle of writing the last record
    with corelogic.System.restore("counter", tmp_path / "c", library=library) as restored:
        assert restored.state == {"count": 1}
        torn = restored.restore_report["tornTail"]
        assert torn["file"] == str(path)
        assert torn["bytes"] == len(data.splitlines(keepends=True)[-1]) - 7


def test_a_damaged_earlier_record_is_corruption_naming_file_and_line(library, tmp_path):
    path = two_increments(library, tmp_path / "c")
    path.write_bytes(path.read_bytes().replace(b'"seq":1,', b'"seq":7,', 1))
    with pytest.raises(corelogic.CorruptError) as caught:
        corelogic.System.restore("counter", tmp_path / "c", library=library)
    assert f"{path} line 2: record 1: checksum mismatch" in caught.value.message


def test_misuse_raises_argument_errors(library, tmp_path):
    with corelogic.System("counter", library=library) as counter:
        with pytest.raises(corelogic.ArgumentError, match="no journal"):
            counter.checkpoint()
        with pytest.raises(corelogic.ArgumentError, match="no journal"):
            counter.sync_journal()
        with pytest.raises(corelogic.ArgumentError, match="durability"):
            counter.open_journal(tmp_path / "x", durability=7)
        with pytest.raises(corelogic.ArgumentError, match="NUL"):
            counter.open_journal("bad\0path")
        counter.open_journal(tmp_path / "c")
        with pytest.raises(corelogic.ArgumentError, match="already journals"):
            counter.open_journal(tmp_path / "d")
    with corelogic.System("counter", library=library) as other:
        with pytest.raises(corelogic.ArgumentError, match="already holds a journal"):
            other.open_journal(tmp_path / "c")
    with pytest.raises(corelogic.NotFoundError):
        corelogic.System.restore("nope", tmp_path / "c", library=library)
    with pytest.raises(corelogic.CorruptError, match="snapshot of feature 'counter', not 'downloads'"):
        corelogic.System.restore("downloads", tmp_path / "c", library=library)


def test_a_closed_system_raises_handle_errors(library, tmp_path):
    counter = corelogic.System("counter", library=library)
    counter.close()
    with pytest.raises(corelogic.HandleError):
        counter.open_journal(tmp_path / "c")
    with pytest.raises(corelogic.HandleError):
        counter.checkpoint()


def test_an_input_a_handler_queued_that_cannot_be_journaled_is_reported_in_the_batch(library, tmp_path):
    # The file size limit leaves room for the outer call's record only: the outer call
    # succeeds, the queued input is dropped (never applied) and listed in the batch.
    import resource
    import signal

    directory = tmp_path / "counter"
    with corelogic.System("counter", library=library) as system:
        system.open_journal(directory)
        empty = segment(directory).stat().st_size
        system.send("increment")
        one_record = segment(directory).stat().st_size - empty
        queued = []
        system.on_state(lambda state: queued.append(system.send("increment")) if not queued else None)
        old_handler = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        old_limit = resource.getrlimit(resource.RLIMIT_FSIZE)
        resource.setrlimit(resource.RLIMIT_FSIZE, (segment(directory).stat().st_size + one_record + 5, old_limit[1]))
        try:
            batch = system.send("increment")
        finally:
            resource.setrlimit(resource.RLIMIT_FSIZE, old_limit)
            signal.signal(signal.SIGXFSZ, old_handler)
        assert batch.state == {"count": 2}
        assert batch.steps == 1
        [dropped] = batch.dropped
        assert dropped["input"] == {"send": {"increment": {}}}
        assert dropped["status"] == "CORELOGIC_ERR_IO"
        assert "File too large" in dropped["error"]
        assert batch.to_dict()["dropped"] == [dropped]
    with corelogic.System.restore("counter", directory, library=library) as restored:
        assert restored.state == {"count": 2}
