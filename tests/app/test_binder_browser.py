"""Binder reproduces the app: a fresh environment from binder/requirements.txt alone.

This builds a new virtual environment (not the development one), installs
``binder/requirements.txt`` into it exactly as repo2docker does (from the
repository's top folder, so ``.`` is this package, built as a wheel), starts the
app's server from it and renders the landing page and a game page in Chromium.
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests import prepared
from tests.conftest import ROOT, Server, free_port, wait_rendered

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def binder_env(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Python of a fresh environment with ``binder/requirements.txt`` installed (the
    session starts the install in the background: ``tests/prepared.py``)."""
    folder = prepared.wait("binder", lambda: tmp_path_factory.mktemp("binder"))
    return prepared.venv_program(folder / "venv", "python")


def test_the_binder_environment_ships_the_widget_and_catalogs(binder_env: Path) -> None:
    probe = (
        "import mathgames, pathlib; p = pathlib.Path(mathgames.__file__).parent; "
        "assert 'site-packages' in str(p), p; "
        "print((p / 'core/static/board.js').exists(),"
        " (p / 'locale/pl/LC_MESSAGES/app.mo').exists())"
    )
    out = subprocess.run([str(binder_env), "-c", probe], capture_output=True, text=True,
                         cwd="/", timeout=60)
    assert out.stdout.split() == ["True", "True"], out.stderr


def test_binder_compiles_the_expert_when_it_builds_the_image(binder_env: Path,
                                                             tmp_path: Path) -> None:
    # repo2docker runs binder/postBuild with the image's Python first on the PATH; the
    # expert's kernel is then compiled into numba's cache, not in a visitor's first game
    cache = tmp_path / "numba-cache"
    out = subprocess.run(
        [str(ROOT / "binder" / "postBuild")], capture_output=True, text=True, timeout=300,
        cwd=ROOT, env={**os.environ, "PATH": f"{binder_env.parent}:{os.environ['PATH']}",
                       "NUMBA_CACHE_DIR": str(cache)},
    )
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.startswith("Matematiko expert: compiled by numba"), out.stdout
    assert any(cache.rglob("*.nbi")), "numba wrote no cache index"


def test_the_binder_environment_serves_the_app(binder_env: Path, page: Any,
                                               tmp_path: Path) -> None:
    """Binder runs its own Jupyter server with a token (through binder/start), not the app's
    server: the badge's address renders the landing page and a game page, and that server
    read the app's settings from jupyter_config.json."""
    token = secrets.token_urlsafe(16)
    port = free_port()
    jupyter = str(binder_env.parent / "jupyter")
    command = [str(ROOT / "binder" / "start"), jupyter, "server", "--no-browser", "--debug",
               f"--port={port}", "--ServerApp.ip=127.0.0.1", f"--ServerApp.root_dir={ROOT}",
               f"--IdentityProvider.token={token}", "--allow-root"]
    server = Server(ROOT, tmp_path / "binder-server.log", command=command, port=port,
                    ready_path=f"/api/status?token={token}",
                    env={"PATH": f"{binder_env.parent}:{os.environ['PATH']}"})
    try:
        server.wait_ready()
        # Without the token, Binder's server lets no one in.
        page.goto(server.url + "/voila/render/notebooks/index.ipynb",
                  wait_until="domcontentloaded")
        assert page.locator(".mg-landing").count() == 0
        # The badge's urlpath, with the token Binder adds.
        page.goto(server.url + f"/voila/render/notebooks/index.ipynb?token={token}",
                  wait_until="domcontentloaded")
        wait_rendered(page, ".mg-landing .mg-card")
        assert page.locator(".mg-card").count() >= 7
        page.goto(server.url + "/voila/render/notebooks/board_demo.ipynb?lang=cs")
        wait_rendered(page)
        assert page.locator(".mg-header .mg-title").text_content() == "Ukázka hrací desky"
    finally:
        server.stop()
    log = server.log.read_text()
    assert str(ROOT / "jupyter_config.json") in log  # "Loaded config file: ..."
    assert sys.executable != str(binder_env)
