"""The app's server settings: one source, also read by Binder."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from mathgames.server.serve import (
    KERNEL_BUDGET_MIB,
    SERVER_SETTINGS,
    app_config,
    default_max_kernels,
    default_render_slots,
    server_command,
)
from tests.kernel_loop import in_own_loop

ROOT = Path(__file__).resolve().parents[2]


def test_binder_reads_the_same_settings_as_make_app() -> None:
    assert json.loads((ROOT / "jupyter_config.json").read_text()) == SERVER_SETTINGS


def test_closed_pages_kernels_are_culled() -> None:
    culling = SERVER_SETTINGS["MappingKernelManager"]
    assert 0 < culling["cull_idle_timeout"] <= 3600
    assert 0 < culling["cull_interval"] <= culling["cull_idle_timeout"]
    assert culling["cull_connected"] is False


def test_make_app_serves_on_loopback_unless_asked_for_a_class(tmp_path: Path) -> None:
    cmd = server_command(tmp_path, port=8866)
    assert cmd[1:] == ["-m", "mathgames.server.serve", "--port", "8866", "--root", str(tmp_path)]
    config = app_config(tmp_path, 8866, "127.0.0.1", max_kernels=5)
    assert config.Voila.ip == "127.0.0.1"
    assert config.AppVoila.max_kernels == 5
    assert config.MappingKernelManager.cull_idle_timeout == 600
    assert "hashed_password" not in config.PasswordIdentityProvider


def test_the_default_cap_follows_the_memory() -> None:
    # the targets: a 4 GiB laptop admits 30 game pages, an 8 GiB one 60
    assert default_max_kernels(4 * 2**30) >= 30 and default_max_kernels(8 * 2**30) >= 60
    assert default_max_kernels(4 * 2**30) < default_max_kernels(16 * 2**30)
    for gib in (4, 8, 16):  # the pages counted at their budget leave 1 GiB to the system
        assert default_max_kernels(gib * 2**30) * KERNEL_BUDGET_MIB <= (gib - 1) * 1024
    assert KERNEL_BUDGET_MIB >= 2 * 27  # twice a game page's measured PSS (27 MiB)
    assert default_max_kernels(256 * 2**20) >= 2  # a small machine still serves a pair
    assert default_max_kernels() >= 2


def test_plain_kernels_count_their_measured_cost() -> None:
    """Plain kernels (macOS, Windows, MATHGAMES_FORK=0) measured 46 MiB PSS a game page
    (bench/classroom_load.py --sizes 30 --no-fork), forked ones 28: the plain cap counts more
    than twice that, and still admits a class of 30 on a 4 GiB laptop."""
    from mathgames.server.admission import PLAIN_PAGE_MIB

    assert PLAIN_PAGE_MIB >= 2 * 46
    for gib in (4, 8, 16):
        plain = default_max_kernels(gib * 2**30, fork_kernels=False)
        assert plain * PLAIN_PAGE_MIB <= (gib - 1) * 1024
        assert plain < default_max_kernels(gib * 2**30)
    assert default_max_kernels(4 * 2**30, fork_kernels=False) >= 30


def test_the_help_tells_the_figure_of_this_computer() -> None:
    shown = subprocess.run([sys.executable, "-m", "mathgames.server.serve", "--help"],
                           capture_output=True, text=True, check=True, cwd=ROOT).stdout
    from mathgames.server.kernel_forks import fork_supported

    cap = default_max_kernels(fork_kernels=fork_supported())
    assert f"admits {cap};" in " ".join(shown.split())
    assert "--trusted-proxy" in shown


def test_a_misspelt_trusted_proxy_is_refused_before_serving() -> None:
    done = subprocess.run([sys.executable, "-m", "mathgames.server.serve", "--trusted-proxy",
                           "10.0.0.2,haproxy", "--port", "1"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 2
    assert "'haproxy' is not an IP address or network" in done.stderr
    config = app_config(ROOT / "notebooks", 8866, "127.0.0.1", 5, proxies=["10.0.0.2"])
    assert config.AppVoila.trusted_proxies == ["10.0.0.2"]


def run_ensure(tmp_path: Path, tool: str, uid: int, apt: bool,
               goal: str | None = None) -> subprocess.CompletedProcess:
    """A system check of `make test` (`.ci/ensure-<tool>`) on a machine without the tool (a
    PATH without it, no PostgreSQL folder; `id` and `apt-get` stand-ins record what the script
    asks for, and the apt-get stand-in "installs" the tool). `goal` is the make command the
    Makefile names to the script (make test when unset)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    pg_root = tmp_path / "postgresql"
    (bin_dir / "id").write_text(f"#!/bin/sh\necho {uid}\n")
    installed = (f"/bin/mkdir -p {pg_root}/15/bin; printf '#!/bin/sh\\n' > {pg_root}/15/bin/initdb"
                 if tool == "postgresql" else
                 f'printf "#!/bin/sh\\n" > {bin_dir}/chromium; /bin/chmod +x {bin_dir}/chromium')
    if apt:
        (bin_dir / "apt-get").write_text(
            f"#!/bin/sh\necho \"$@\" >> {tmp_path}/apt.log\n"
            f'case "$*" in *install*) {installed};; esac\n')
    for program in bin_dir.iterdir():
        program.chmod(0o755)
    env = {"PATH": str(bin_dir), "HOME": str(tmp_path), "MATHGAMES_PG_ROOT": str(pg_root)}
    if goal is not None:
        env["MATHGAMES_MAKE_GOAL"] = goal
    return subprocess.run(["/bin/bash", str(ROOT / ".ci" / f"ensure-{tool}")], env=env,
                          capture_output=True, text=True, timeout=30)


@pytest.mark.parametrize("tool", ["chromium", "postgresql"])
def test_make_test_without_a_tool_stops_at_once_with_the_command(
        tmp_path: Path, tool: str) -> None:
    result = run_ensure(tmp_path, tool, uid=1000, apt=True)
    assert result.returncode == 1
    assert f"sudo apt-get install -y {tool}" in result.stderr
    assert not (tmp_path / "apt.log").exists()


@pytest.mark.parametrize("tool", ["chromium", "postgresql"])
def test_make_test_as_root_installs_a_missing_tool(tmp_path: Path, tool: str) -> None:
    result = run_ensure(tmp_path, tool, uid=0, apt=True)
    assert result.returncode == 0, result.stderr
    calls = (tmp_path / "apt.log").read_text().splitlines()
    assert calls[0].startswith("update")
    assert "install" in calls[1] and tool in calls[1].split()
    makefile = (ROOT / "Makefile").read_text()
    assert "\ntest: chromium postgresql " in makefile  # checked before anything else


@pytest.mark.parametrize("tool", ["chromium", "postgresql"])
def test_make_bench_checks_the_same_tools_and_names_itself(tmp_path: Path, tool: str) -> None:
    """The lesson-page bench drives Chromium and the classroom bench starts PostgreSQL: on a
    fresh machine `make bench` installs them first, or stops and names itself, not make test."""
    makefile = (ROOT / "Makefile").read_text()
    assert "\nbench: chromium postgresql " in makefile
    dry_run = subprocess.run(["make", "-n", "-C", str(ROOT), "bench"], capture_output=True,
                             text=True, timeout=30).stdout
    assert f'MATHGAMES_MAKE_GOAL="make bench" .ci/ensure-{tool}' in dry_run
    result = run_ensure(tmp_path, tool, uid=1000, apt=False, goal="make bench")
    assert result.returncode == 1
    assert result.stderr.startswith("make bench needs ")
    assert "then make bench again" in result.stderr
    assert "make test" not in result.stderr


def test_binder_reads_the_settings_through_its_start_script(tmp_path: Path) -> None:
    script = ROOT / "binder" / "start"
    out = subprocess.run([str(script), "sh", "-c", "echo $JUPYTER_CONFIG_PATH"],
                         capture_output=True, text=True, timeout=30, cwd=tmp_path,
                         env={"PATH": "/usr/bin:/bin"})
    assert out.stdout.split(":")[0].strip() == str(ROOT)
    assert (ROOT / "jupyter_config.json").exists()


def test_binder_installs_the_package_and_the_app() -> None:
    requirements = (ROOT / "binder" / "requirements.txt").read_text().split()
    assert "." in requirements or ".[app]" in requirements
    assert (ROOT / "binder" / "runtime.txt").read_text().strip() == "python-3.12"


def test_make_app_runs_the_mathgames_command() -> None:
    """`make app` runs the teacher's command, `mathgames app` (`mathgames class` for a class),
    whose entry point is a function that exists (a renamed module once broke it)."""
    import importlib
    import re

    makefile = (ROOT / "Makefile").read_text()
    recipe = makefile.split("\napp:", 1)[1].split("\n\n", 1)[0]
    assert re.search(r"\$\(BIN\)/mathgames\s+\\?\s*\$\(if \$\(CLASSROOM\),class,app\)", recipe)
    script = re.search(r'^mathgames = "([\w.]+):(\w+)"$', (ROOT / "pyproject.toml").read_text(),
                       re.MULTILINE)
    assert script is not None
    module, function = script.groups()
    assert callable(getattr(importlib.import_module(module), function))


def test_a_busy_classroom_server_waits_instead_of_dropping_a_page() -> None:
    """30 pages opened at once on 2 cores: a kernel may need a minute to start, and a cell's
    output may reach the server long after the cell finished. The defaults (60 s, 4 s) left
    blank pages in bench/voila_load.py; these settings let every page render."""
    assert SERVER_SETTINGS["VoilaExecutor"]["startup_timeout"] >= 120
    assert SERVER_SETTINGS["VoilaExecutor"]["iopub_timeout"] >= 60
    assert SERVER_SETTINGS["MappingKernelManager"]["kernel_info_timeout"] >= 120


def test_a_slow_page_keeps_its_kernel_while_it_may_still_connect() -> None:
    """The reaper ends the kernel of a page that was sent but never connected. With 30 pages
    loading at once on 2 cores a page connected after 60-80 s, so a 60 s grace ended 8 of 30
    game pages' kernels (bench/voila_load.py, blank pages): the grace is at least as long as
    a page's websocket waits for its kernel."""
    from mathgames.server.app import AppVoila

    waits = SERVER_SETTINGS["MappingKernelManager"]["kernel_info_timeout"]
    assert AppVoila.unconnected_grace.default_value >= waits


def test_pages_wait_their_turn_for_a_render_slot(monkeypatch: pytest.MonkeyPatch) -> None:
    import asyncio

    from mathgames.server import render

    monkeypatch.setattr(render, "SLOT_PATIENCE", 0.5)
    order: list[str] = []

    async def page(name: str, seconds: float, slots: asyncio.Semaphore) -> None:
        slot = await render.render_slot(slots)
        order.append(f"{name} starts{'' if slot else ' without a slot'}")
        await asyncio.sleep(seconds)
        order.append(f"{name} ends")
        if slot is not None:
            slot.release()

    async def scenario() -> None:
        # Two slots, three pages: the third starts when the first ends.
        two = asyncio.Semaphore(2)
        await asyncio.gather(page("a", 0.1, two), page("b", 0.3, two), page("c", 0.0, two))
        assert order.index("c starts") > order.index("a ends")
        assert two._value == 2  # every slot given back
        order.clear()
        # A page that holds its slot too long does not block the next beyond the patience.
        one = asyncio.Semaphore(1)
        await asyncio.gather(page("slow", 1.2, one), page("next", 0.0, one))
        assert "next starts without a slot" in order
        assert order.index("next starts without a slot") < order.index("slow ends")
        assert await render.render_slot(None) is None  # no limit, no waiting

    in_own_loop(scenario())
    assert default_render_slots(3) == 6


def test_a_taken_port_stops_the_server_at_once_with_what_to_do() -> None:
    # a temporary folder short enough for the server's sockets, so they would be in it
    with socket.socket() as taken, tempfile.TemporaryDirectory(dir="/tmp") as temporary:
        taken.bind(("127.0.0.1", 0))  # another program (or the app, started before)
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "mathgames.server.serve", "--port", str(port)],
            cwd=ROOT, env={**os.environ, "TMPDIR": temporary}, capture_output=True,
            text=True, timeout=60)
        made = os.listdir(temporary)
    assert done.returncode == 1, done.stderr[-2000:]
    assert f"mathgames: port {port} is already in use" in done.stderr
    assert f"make app PORT={port + 1}" in done.stderr
    assert "serving the app" not in done.stdout  # nothing claims it serves
    assert made == []  # no template, no Voila folder was started
