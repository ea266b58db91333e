"""The app's server settings: one source, also read by Binder."""

from __future__ import annotations

import json
from pathlib import Path

from mathgames.app.serve import SERVER_SETTINGS, server_command

ROOT = Path(__file__).resolve().parents[2]


def test_binder_reads_the_same_settings_as_make_app() -> None:
    assert json.loads((ROOT / "jupyter_config.json").read_text()) == SERVER_SETTINGS


def test_closed_pages_kernels_are_culled() -> None:
    culling = SERVER_SETTINGS["MappingKernelManager"]
    assert 0 < culling["cull_idle_timeout"] <= 3600
    assert 0 < culling["cull_interval"] <= culling["cull_idle_timeout"]
    assert culling["cull_connected"] is False


def test_the_landing_page_is_the_front_page(tmp_path: Path) -> None:
    cmd = server_command(tmp_path, port=8866)
    assert "--ServerApp.default_url=/voila/render/index.ipynb" in cmd
    assert "--ServerApp.ip=127.0.0.1" in cmd
    assert "--MappingKernelManager.cull_idle_timeout=600" in cmd


def test_binder_installs_the_package_and_the_app() -> None:
    requirements = (ROOT / "binder" / "requirements.txt").read_text().split()
    assert "." in requirements or ".[app]" in requirements
    assert (ROOT / "binder" / "runtime.txt").read_text().strip() == "python-3.12"


def test_make_app_runs_the_server_module() -> None:
    """`make app` must start this module (a renamed module once broke it)."""
    import importlib.util
    import re

    makefile = (ROOT / "Makefile").read_text()
    recipe = makefile.split("\napp:", 1)[1].split("\n\n", 1)[0]
    modules = re.findall(r"-m ([\w.]+)", recipe)
    assert modules == ["mathgames.app.serve"]
    assert importlib.util.find_spec(modules[0]) is not None


def test_a_busy_classroom_server_waits_instead_of_dropping_a_page() -> None:
    """30 pages opened at once on 2 cores: a kernel may need a minute to start, and a cell's
    output may reach the server long after the cell finished. The defaults (60 s, 4 s) left
    blank pages in bench/voila_load.py; these settings let every page render."""
    assert SERVER_SETTINGS["VoilaExecutor"]["startup_timeout"] >= 120
    assert SERVER_SETTINGS["VoilaExecutor"]["iopub_timeout"] >= 60
    assert SERVER_SETTINGS["MappingKernelManager"]["kernel_info_timeout"] >= 120
