"""Binder reproduces the app: a fresh environment from binder/requirements.txt alone.

This builds a new virtual environment (not the development one), installs
``binder/requirements.txt`` into it exactly as repo2docker does (from the
repository's top folder, so ``.`` is this package, built as a wheel), starts the
app's server from it and renders the landing page and a game page in Chromium.
"""

from __future__ import annotations

import subprocess
import sys
import venv
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT, Server, wait_rendered

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def binder_env(tmp_path_factory: pytest.TempPathFactory) -> Path:
    env = tmp_path_factory.mktemp("binder") / "venv"
    venv.EnvBuilder(with_pip=True).create(env)
    python = env / "bin" / "python"
    result = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "-r", "binder/requirements.txt"],
        cwd=ROOT, capture_output=True, text=True, timeout=900,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return python


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


def test_the_binder_environment_serves_the_app(binder_env: Path, page: Any,
                                               tmp_path: Path) -> None:
    server = Server(ROOT / "notebooks", tmp_path / "binder-server.log", python=str(binder_env))
    try:
        server.wait_ready()
        page.goto(server.url + "/", wait_until="domcontentloaded")  # the front page redirects
        wait_rendered(page, ".mg-landing .mg-card")
        assert page.url.split("?")[0].endswith("/voila/render/index.ipynb")
        assert page.locator(".mg-card").count() >= 7
        page.goto(server.url + "/voila/render/board_demo.ipynb?lang=cs")
        wait_rendered(page)
        assert page.locator(".mg-header .mg-title").text_content() == "Ukázka hrací desky"
    finally:
        server.stop()
    assert sys.executable != str(binder_env)
