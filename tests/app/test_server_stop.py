"""The app's server ends cleanly, however it is stopped, and leaves nothing behind.

A teacher stops ``make app`` with Ctrl+C (SIGINT to the terminal's whole process
group, the kernel template included) or closes its window (SIGHUP to the same group);
a service manager sends SIGTERM to the group or
to the server alone; a crash or ``kill -9`` ends the server without warning (then the
template and the pages' kernels must notice and end by themselves). Each
server here runs with a temporary folder of its own (``TMPDIR``), has served a page
(so a forked kernel runs), and is then stopped one of those ways.

A temporary folder too long for a Unix socket's address (macOS gives each user one
under ``/var/folders``) still serves pages: the kernels' sockets go in ``/tmp``.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from mathgames.server.kernel_forks import FOLDER_PREFIX
from mathgames.server.serve import server_command
from tests.conftest import ARTIFACTS, NOTEBOOKS, Server, free_port

pytestmark = pytest.mark.browser  # a real app server, as the browser tests use

ENDS_WITHIN = 30  # seconds

#: Runs a command with SIGINT and SIGHUP as a terminal gives them (these tests may run
#: under nohup or as a background job, which ignore them, and children inherit that).
FROM_A_TERMINAL = [sys.executable, "-c", "import os, signal, sys; "
                   "[signal.signal(s, signal.SIG_DFL) for s in (signal.SIGINT, signal.SIGHUP)]; "
                   "os.execv(sys.argv[1], sys.argv[1:])"]


@pytest.fixture
def temporary() -> Iterator[Path]:
    """A temporary folder for one server, short enough for its sockets."""
    with tempfile.TemporaryDirectory(prefix="mg-stop-", dir="/tmp") as folder:
        yield Path(folder)


def serving_a_page(tmp_path: Path, temporary: Path, name: str,
                   launcher: list[str] = FROM_A_TERMINAL, **env: str,
                   ) -> tuple[Server, list[psutil.Process]]:
    """A ready server started by ``launcher`` with ``temporary`` as its temporary folder
    (and ``env``), after a page was served: the server and its descendants (template
    and kernel)."""
    served = tmp_path / "notebooks"
    shutil.copytree(NOTEBOOKS, served)
    port = free_port()
    server = Server(served, ARTIFACTS / f"stop-{name}-server.log", port=port,
                    command=[*launcher, *server_command(served, port)],
                    env={"TMPDIR": str(temporary), **env})
    try:
        server.wait_ready()
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=120)
        try:  # the landing page runs in a kernel forked from the template
            connection.request("GET", "/voila/render/index.ipynb")
            response = connection.getresponse()
            assert response.status == 200, response.status
            response.read()
        finally:
            connection.close()
        family = psutil.Process(server.process.pid).children(recursive=True)
        titles = [" ".join(p.cmdline()) for p in family]
        assert any("kernel template" in t for t in titles), titles
        assert any("(forked)" in t for t in titles), titles  # the page's kernel
    except BaseException:
        server.stop()
        raise
    return server, family


def ended(processes: list[psutil.Process], within: float) -> list[str]:
    """Those of ``processes`` still running after ``within`` seconds (zombies count as
    ended): their command lines."""
    deadline = time.monotonic() + within
    while True:
        alive = []
        for process in processes:
            try:
                if process.status() != psutil.STATUS_ZOMBIE:
                    alive.append(" ".join(process.cmdline()))
            except psutil.NoSuchProcess:
                pass
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(0.2)


@pytest.mark.parametrize(("how", "signum", "whole_group"), [
    ("ctrl-c", signal.SIGINT, True),
    ("sigterm-group", signal.SIGTERM, True),
    ("sigterm-server", signal.SIGTERM, False),
    ("terminal-closed", signal.SIGHUP, True),
])
def test_a_stopped_server_ends_its_processes_and_removes_its_files(
        tmp_path: Path, temporary: Path, how: str, signum: int, whole_group: bool) -> None:
    server, family = serving_a_page(tmp_path, temporary, how)
    made = sorted(p.name[:6] for p in temporary.iterdir())
    assert made == ["mathga", "voila_"], made  # the template's folder, Voila's
    try:
        if whole_group:
            os.killpg(server.process.pid, signum)
        else:
            os.kill(server.process.pid, signum)
        code = server.process.wait(ENDS_WITHIN)
    finally:
        server.stop()
    log = server.log.read_text()
    assert code == 0, log[-3000:]
    assert ended(family, ENDS_WITHIN) == []
    assert sorted(p.name for p in temporary.iterdir()) == []  # no socket, no folder
    assert "Traceback" not in log, log[-3000:]


def test_a_killed_server_leaves_no_process_and_no_template_socket(
        tmp_path: Path, temporary: Path) -> None:
    server, family = serving_a_page(tmp_path, temporary, "killed")
    try:
        os.kill(server.process.pid, signal.SIGKILL)  # no chance to clean up: the template does
        server.process.wait(ENDS_WITHIN)
        # the template sees its server gone, the page's kernel its template
        assert ended(family, ENDS_WITHIN) == []
    finally:
        server.stop()
        for process in family:  # a kernel left behind would live on
            with contextlib.suppress(psutil.NoSuchProcess):
                process.kill()
    # Voila's own folder of connection files stays (the server could not remove it);
    # the template's socket and its folder are gone
    assert [p.name for p in temporary.iterdir() if p.name.startswith(FOLDER_PREFIX)] == []


def test_a_temporary_folder_too_long_for_sockets_still_serves_pages(tmp_path: Path) -> None:
    long = tmp_path / ("t" * 60)  # with the kernels' socket names, past any socket address
    long.mkdir()
    server, family = serving_a_page(tmp_path, long, "long-tmpdir")  # a page and its kernel
    server.stop()
    assert ended(family, ENDS_WITHIN) == []
    assert "is longer than" not in server.log.read_text()


def test_pages_keep_the_terminal_quiet_and_write_nothing_in_jupyters_folders(
        tmp_path: Path, temporary: Path) -> None:
    """The teacher's terminal shows what matters, not a warning for every student's page,
    and serving a page writes no file in the teacher's Jupyter folders."""
    data = tmp_path / "jupyter-data"
    data.mkdir()
    server, _family = serving_a_page(tmp_path, temporary, "quiet", JUPYTER_DATA_DIR=str(data),
                                     JUPYTER_RUNTIME_DIR=str(data / "runtime"))
    server.stop()
    log = server.log.read_text()
    assert "Kernel started" in log  # the page was served
    assert "WARNING" not in log, log  # such as "Notebook index.ipynb is not trusted"
    assert "Ctrl-C will not work" not in log, log  # ipykernel's banner, for every kernel
    assert sorted(p.name for p in data.rglob("*")) == []  # no signature database, no secret


def test_a_server_started_with_nohup_survives_a_closed_terminal(tmp_path: Path,
                                                                temporary: Path) -> None:
    server, family = serving_a_page(tmp_path, temporary, "nohup", launcher=["nohup"])
    try:
        os.killpg(server.process.pid, signal.SIGHUP)  # the terminal closes
        time.sleep(3)
        assert server.process.poll() is None  # still serving
        # the template and the page's kernel too
        assert [p for p in family if not p.is_running()] == []
        server.ready_path = "/voila/render/index.ipynb"
        server.wait_ready(timeout=60)  # and it still serves a page
    finally:
        server.stop()
