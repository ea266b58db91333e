"""A teacher's install: the wheel with its ``app`` extra in a fresh environment, then
``mathgames class`` with plain kernels (as on Windows and macOS).

The wheel is built from this checkout and installed into a new virtual environment in
a temporary folder (not the checkout, which is neither the working folder nor on
``sys.path``), from the package index (pip's usual sources here). The server then
finds the app's pages in the installed package. Without Chromium (the CI's macOS and
Windows runners) the smoke test over HTTP still runs.
"""

from __future__ import annotations

import http.client
import os
import re
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests import prepared
from tests.conftest import ARTIFACTS, free_port, wait_rendered

pytestmark = pytest.mark.slow

WINDOWS = os.name == "nt"


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with the wheel and its ``app`` extra: its folder
    (``MATHGAMES_PACKAGE_VENV`` may name one made so before, to try the tests again).
    The session starts the install in the background (``tests/prepared.py``)."""
    again = os.environ.get("MATHGAMES_PACKAGE_VENV")
    if again:
        return Path(again)
    where = prepared.wait("teacher", lambda: tmp_path_factory.mktemp("teacher"))
    names = set((where / "wheel-files.txt").read_text().splitlines())
    assert "mathgames/notebooks/index.ipynb" in names
    assert "mathgames/notebooks/explore/data/matematiko_probabilities.json" in names
    return where / "venv"


@pytest.fixture(scope="module")
def class_server(installed: Path, tmp_path_factory: pytest.TempPathFactory,
                 ) -> Iterator[str]:
    """``mathgames class`` of the fresh environment, plain kernels, on a free port."""
    home = tmp_path_factory.mktemp("home")
    port = free_port()
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("MATHGAMES_", "PYTHON", "JUPYTER", "VIRTUAL_ENV"))}
    env.update(MATHGAMES_FORK="0", HOME=str(home), USERPROFILE=str(home),
               APPDATA=str(home / "AppData"), MATHGAMES_PUBLIC_URL=f"http://127.0.0.1:{port}",
               PYTHONUNBUFFERED="1")
    ARTIFACTS.mkdir(exist_ok=True)
    log_path = ARTIFACTS / "package-server.log"
    extra: dict[str, Any] = ({"creationflags": subprocess.CREATE_NEW_PROCESS_GROUP}
                             if WINDOWS else {"start_new_session": True})
    with log_path.open("w") as log:
        process = subprocess.Popen(
            [str(prepared.venv_program(installed, "mathgames")), "class", "--ip", "127.0.0.1",
             "--port", str(port)], cwd=home, env=env, stdout=log,
            stderr=subprocess.STDOUT, **extra)
    try:
        deadline = time.monotonic() + 120
        while not answers(port, "/"):
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail("mathgames class did not start:\n" + log_path.read_text()[-3000:])
            time.sleep(0.5)
        yield f"http://127.0.0.1:{port}"
    finally:
        stop(process)
    said = log_path.read_text()
    assert "started anew (plain)" in said, said[-3000:]


def answers(port: int, path: str) -> int:
    """The status of a GET of ``path`` on the local port ``port`` (0: no answer)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        connection.request("GET", path)
        return connection.getresponse().status
    except (OSError, http.client.HTTPException):
        return 0
    finally:
        connection.close()


def stop(process: subprocess.Popen[Any]) -> None:
    """Stop the server as Ctrl+C would, then for good."""
    if process.poll() is None:
        if WINDOWS:
            process.send_signal(signal.CTRL_BREAK_EVENT)
        else:
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def test_the_command_says_what_it_does(installed: Path) -> None:
    mathgames = str(prepared.venv_program(installed, "mathgames"))
    said = subprocess.run([mathgames, "--help"], capture_output=True, text=True, timeout=120,
                          check=True).stdout
    assert all(command in said for command in ("app", "class", "lab"))
    said = subprocess.run([mathgames, "class", "--help"], capture_output=True, text=True,
                          timeout=120, check=True).stdout
    assert "--password" in said and "--max-kernels" in said


def test_a_class_server_serves_its_pages_from_the_package(class_server: str) -> None:
    """The server smoke (no browser): the landing page and a lesson render."""
    port = int(class_server.rsplit(":", 1)[1])
    assert answers(port, "/") == 302
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
    try:
        connection.request("GET", "/voila/render/explore/pl/board_geometry.ipynb?lang=pl")
        reply = connection.getresponse()
        page = reply.read().decode("utf-8", "replace")
    finally:
        connection.close()
    assert reply.status == 200
    assert re.search(r'<html[^>]*lang="pl"|kernelId|voila', page)


@pytest.mark.browser
def test_a_game_and_a_polish_lesson_open_in_chromium(class_server: str, page: Any) -> None:
    page.goto(f"{class_server}/voila/render/triomino.ipynb?lang=en",
              wait_until="domcontentloaded")
    wait_rendered(page, ".mg-start")
    page.locator(".mg-start").click()
    wait_rendered(page, ".mathgames-board")
    # a lesson in Polish, with its precomputed data (explore/data/) from the package
    page.goto(f"{class_server}/voila/render/explore/pl/matematiko_probabilities.ipynb?lang=pl",
              wait_until="domcontentloaded")
    wait_rendered(page, ".mg-lesson-predict")  # the first question (the rest unfolds)
    assert page.locator(".mg-lang.mg-current").first.get_attribute("data-lang") == "pl"
    assert page.mg_errors == []
