"""The background installs of ``tests/prepared.py``, with made-up installs that write a file
(or fail) instead of running pip: started for a session that uses them, waited for by the
test that needs them, made by that test itself otherwise, and cleaned up at the end."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from tests import prepared


def _write(folder: Path) -> None:
    (folder / "made.txt").write_text(threading.current_thread().name)


def _fail(folder: Path) -> None:
    raise OSError("no such package: mathgames[nothing]")


@pytest.fixture
def jobs(monkeypatch: pytest.MonkeyPatch) -> dict[str, prepared.Job]:
    """Two made-up installs in place of the real ones, and a session of their own."""
    made = {"good": prepared.Job(("tests/app/test_good.py",), _write),
            "bad": prepared.Job(("tests/app/test_bad.py",), _fail)}
    monkeypatch.setattr(prepared, "JOBS", made)
    monkeypatch.setattr(prepared, "_THREADS", [])
    monkeypatch.delenv(prepared.WHERE, raising=False)
    return made


def test_a_session_that_uses_an_install_starts_it_and_its_test_waits(jobs, tmp_path) -> None:
    prepared.start([str(prepared.ROOT / "tests")], narrowed=False)
    try:
        folder = prepared.wait("good", lambda: tmp_path / "own")
        assert (folder / "made.txt").read_text() == "install good"  # the session's thread
        assert folder.parent != tmp_path
        with pytest.raises(RuntimeError, match=r"the bad install failed:(.|\n)*mathgames\["):
            prepared.wait("bad", lambda: tmp_path / "own")
    finally:
        prepared.finish()
    assert not folder.exists() and prepared.WHERE not in os.environ


@pytest.mark.parametrize(("args", "narrowed"), [
    (["tests/core"], False),       # no file of the session uses it
    (["tests"], True),             # -k, -m or --collect-only
])
def test_otherwise_the_test_makes_its_install_itself(jobs, tmp_path, args, narrowed) -> None:
    prepared.start([str(prepared.ROOT / arg) for arg in args], narrowed=narrowed)
    own = tmp_path / "own"
    own.mkdir()
    assert prepared.wait("good", lambda: own) == own
    assert (own / "made.txt").read_text() == threading.current_thread().name
    with pytest.raises(OSError, match="no such package"):
        prepared.wait("bad", lambda: own)
    prepared.finish()
