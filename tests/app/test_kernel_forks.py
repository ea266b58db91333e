"""Kernels forked from the warm template are real, separate, well-behaved kernels.

These start a real template process and real kernels through jupyter_client's
kernel manager with the ``mathgames-fork`` provisioner, as the app's server does.
"""

from __future__ import annotations

import ast
import asyncio
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest
from jupyter_client.manager import AsyncKernelManager
from jupyter_client.provisioning import KernelProvisionerFactory

from mathgames.server.kernel_forks import (
    ForkedProcess,
    ForkProvisioner,
    KernelTemplate,
    fork_request,
    kernel_config,
)
from mathgames.server.serve import FORK_PROVISIONER
from tests.kernel_loop import in_own_loop


@pytest.fixture(scope="module")
def template() -> Iterator[KernelTemplate]:
    started = KernelTemplate.start()
    assert started is not None, "the kernel template did not start"
    yield started
    started.stop()


@pytest.fixture()
def fork_factory() -> Iterator[None]:
    factory = KernelProvisionerFactory.instance()
    kept = factory.default_provisioner_name
    factory.default_provisioner_name = FORK_PROVISIONER
    yield
    factory.default_provisioner_name = kept


def _quiet(_msg: dict[str, Any]) -> None:
    pass


async def evaluate(manager: AsyncKernelManager, expression: str) -> str:
    """The kernel's ``repr`` of ``expression``."""
    client = manager.client()
    client.start_channels()
    try:
        await client.wait_for_ready(timeout=60)
        reply = await client.execute_interactive(
            "", user_expressions={"out": expression}, timeout=60, output_hook=_quiet)
        found = reply["content"]["user_expressions"]["out"]
        assert found["status"] == "ok", found
        return found["data"]["text/plain"]
    finally:
        client.stop_channels()


async def start(folder: Path, env: dict[str, str] | None = None,
                run_in_folder: bool = False) -> AsyncKernelManager:
    # Each kernel's Unix sockets in a folder of its own (the server's are in its own).
    folder.mkdir()
    manager = AsyncKernelManager(kernel_name="python3", transport="ipc",
                                 ip=str(folder / "kernel"))
    where = {"cwd": str(folder)} if run_in_folder else {}
    await manager.start_kernel(env={**os.environ, **(env or {})}, **where)
    return manager


def test_a_forked_kernel_is_a_real_separate_kernel(template: KernelTemplate,
                                                    fork_factory: None, tmp_path: Path) -> None:
    async def scenario() -> dict[str, Any]:
        polish = await start(tmp_path / "pl", {"QUERY_STRING": "lang=pl&seed=3"})
        czech = await start(tmp_path / "cs", {"QUERY_STRING": "lang=cs"})
        try:
            assert isinstance(polish.provisioner, ForkProvisioner)
            found = {
                "parents": [await evaluate(m, "__import__('os').getppid()")
                            for m in (polish, czech)],
                "pids": [await evaluate(m, "__import__('os').getpid()") for m in (polish, czech)],
                "languages": [await evaluate(m, "__import__('mathgames.core.i18n', fromlist=["
                                                "'x']).get_language()") for m in (polish, czech)],
                "randoms": [await evaluate(m, "__import__('random').random()")
                            for m in (polish, czech)],
                "targets": await evaluate(polish, "sorted(get_ipython().kernel.comm_manager"
                                                  ".targets)"),
                "query": await evaluate(polish, "__import__('os').environ['QUERY_STRING']"),
                # What a kernel prints goes where the template's errors go (the server's log),
                # never into the pipe the server read "ready" from: a full pipe would block.
                "stdout": await evaluate(czech, "__import__('os').readlink('/proc/self/fd/1')"),
            }
            # An interrupt reaches the forked kernel (its own process group).
            client = polish.client()
            client.start_channels()
            await client.wait_for_ready(timeout=60)
            msg_id = client.execute("import time; time.sleep(60)")
            await asyncio.sleep(1.0)
            await polish.interrupt_kernel()
            reply = await client.get_shell_msg(timeout=30)
            while reply["parent_header"].get("msg_id") != msg_id:
                reply = await client.get_shell_msg(timeout=30)
            client.stop_channels()
            found["interrupted"] = reply["content"].get("ename")
            pids = [int(p) for p in found["pids"]]
        finally:
            await polish.shutdown_kernel(now=False)
            await czech.shutdown_kernel(now=True)
        found["alive_after"] = [psutil.pid_exists(pid) and psutil.Process(pid).status()
                                != psutil.STATUS_ZOMBIE for pid in pids]
        return found

    found = in_own_loop(scenario())
    assert found["parents"] == [str(template.process.pid)] * 2  # forked by the template
    assert found["pids"][0] != found["pids"][1]
    assert found["languages"] == ["'pl'", "'cs'"]  # ?lang= reached each page's kernel
    assert found["query"] == "'lang=pl&seed=3'"
    assert found["randoms"][0] != found["randoms"][1]  # each fork reseeded its random
    assert "'jupyter.widget.control'" in found["targets"]  # ipywidgets' page comm target
    assert "'jupyter.widget'" in found["targets"]
    assert found["interrupted"] == "KeyboardInterrupt"
    assert found["stdout"] == repr(os.readlink(f"/proc/{template.process.pid}/fd/2"))
    assert found["alive_after"] == [False, False]  # both ended, no zombie left


def test_without_the_template_kernels_launch_the_usual_way(fork_factory: None,
                                                           tmp_path: Path) -> None:
    async def scenario() -> tuple[str, int]:
        kept = KernelTemplate._current
        KernelTemplate._current = None
        try:
            manager = await start(tmp_path / "usual")
            try:
                parent = await evaluate(manager, "__import__('os').getppid()")
            finally:
                await manager.shutdown_kernel(now=True)
        finally:
            KernelTemplate._current = kept
        return parent, os.getpid()

    parent, me = in_own_loop(scenario())
    assert parent == str(me)  # launched by this process, as jupyter_client always does


def test_the_template_refuses_a_malformed_request(template: KernelTemplate) -> None:
    async def scenario() -> str:
        with pytest.raises(RuntimeError) as refused:
            await template.fork({"argv": "-f x", "env": {}, "cwd": "/"})
        return str(refused.value)

    assert "argv must be a list of strings" in in_own_loop(scenario())
    assert template.process.poll() is None  # and keeps serving


def test_only_this_pythons_ipykernel_is_forked() -> None:
    assert fork_request(["python", "-m", "ipykernel_launcher", "-f", "k.json"], None, "/")
    assert fork_request(["/usr/bin/env", "-m", "ipykernel_launcher", "-f", "k.json"],
                        None, "/") is None
    assert fork_request(["python", "-m", "some_other_kernel", "-f", "k.json"], None, "/") is None
    assert fork_request(["python"], None, "/") is None


def test_a_forked_process_that_ended_polls_as_ended() -> None:
    process = psutil.Popen(["sleep", "30"])
    seen = ForkedProcess(process.pid)
    assert seen.poll() is None
    seen.terminate()
    process.wait(10)  # reaped here, as the template's children are reaped by the system
    deadline = time.monotonic() + 10
    while seen.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert seen.poll() == 0
    seen.kill()  # ending an ended kernel is not an error


COMMAND_LINES = """
import json
from ipykernel.kernelapp import IPKernelApp
from mathgames.server.kernel_forks import kernel_config, read_command_line_as

argv = ["-f", "/run/kernel-1.json"]
settings = [*argv, "--HistoryManager.enabled=False", "--IPKernelApp.parent_handle=4242"]
readings = {}
for way in ("traitlets", "quick"):
    app = IPKernelApp()
    if way == "quick":
        read_command_line_as(app, kernel_config(argv, 4242))
    app.parse_command_line(settings)
    readings[way] = {
        "config": {section: {key: str(value) for key, value in values.items()}
                   for section, values in app.config.items()},
        "cli_config": {section: sorted(values) for section, values in app.cli_config.items()},
        "extra_args": app.extra_args, "argv": app.argv,
        "connection_file": app.connection_file, "parent_handle": app.parent_handle,
    }
print(json.dumps(readings))
"""


def test_a_forked_kernel_reads_its_usual_command_line_as_traitlets_would() -> None:
    """The usual ``-f FILE`` is read without traitlets' parser, to the same result (in a
    process of its own: importing ipykernel here would change the comm module for the
    other tests)."""
    done = subprocess.run([sys.executable, "-c", COMMAND_LINES], capture_output=True,
                          text=True, timeout=120, check=True)
    readings = json.loads(done.stdout)
    assert readings["quick"] == readings["traitlets"]
    assert readings["quick"]["config"]["HistoryManager"] == {"enabled": "False"}
    assert readings["quick"]["connection_file"] == "/run/kernel-1.json"
    assert readings["quick"]["parent_handle"] == 4242
    assert kernel_config(["-f", "/k.json", "--debug"], 4242) is None  # traitlets reads it


def test_a_forked_kernel_adopts_the_templates_shell_as_its_own(
        template: KernelTemplate, fork_factory: None, tmp_path: Path) -> None:
    """The template built the IPython shell once; each kernel's copy is its own: its
    kernel, its folder, its environment, its variables."""
    async def scenario() -> dict[str, Any]:
        first = await start(tmp_path / "first", run_in_folder=True)
        second = await start(tmp_path / "second", run_in_folder=True)
        try:
            shell = "get_ipython()"
            found = {
                "built": await evaluate(first, f"{shell}._mathgames_built_in_template"),
                "own kernel": await evaluate(
                    first, f"{shell}.kernel.shell is {shell} and {shell}.parent is "
                           f"{shell}.kernel"),
                "folder": await evaluate(first, "[str(_dh[0]), get_ipython().starting_dir,"
                                                " get_ipython().run_line_magic('pwd', '')]"),
                "pager": await evaluate(first, "__import__('os').environ.get('PAGER')"),
                "subshells": await evaluate(first, f"{shell}.kernel.shell_channel_thread"),
                "features": await evaluate(
                    first, f"{shell}.kernel.kernel_info.get('supported_features', [])"),
            }
            client = first.client()
            client.start_channels()
            try:
                await client.wait_for_ready(timeout=60)
                reply = await client.execute_interactive("secret = 42\nsecret", timeout=60,
                                                         output_hook=_quiet)
                found["count"] = reply["content"]["execution_count"]
                reply = await client.execute_interactive("1 / 0", timeout=60,
                                                         output_hook=_quiet)
                found["error"] = reply["content"].get("ename")
            finally:
                client.stop_channels()
            found["mine"] = await evaluate(first, "secret")
            found["theirs"] = await evaluate(second, "'secret' in get_ipython().user_ns")
            found["second folder"] = await evaluate(second, "str(_dh[0])")
        finally:
            await first.shutdown_kernel(now=True)
            await second.shutdown_kernel(now=True)
        return found

    found = in_own_loop(scenario())
    assert found["built"] == "True"
    assert found["own kernel"] == "True"
    assert ast.literal_eval(found["folder"]) == [str(tmp_path / "first")] * 3
    assert found["second folder"] == repr(str(tmp_path / "second"))
    assert found["pager"] == "'cat'"  # what the shell sets for a kernel's commands
    assert found["subshells"] == "None"  # shell messages read in the main thread
    assert "kernel subshells" not in ast.literal_eval(found["features"])
    assert found["count"] == 1  # the first cell of a fresh kernel
    assert found["error"] == "ZeroDivisionError"
    assert found["mine"] == "42"
    assert found["theirs"] == "False"  # nothing of one page reaches another


def test_a_kernel_with_a_configuration_of_its_own_builds_its_own_shell(
        template: KernelTemplate, fork_factory: None, tmp_path: Path) -> None:
    """A profile's configuration file says something the template's shell was not built
    with: that kernel builds its own shell, and the configuration holds."""
    profile = tmp_path / "ipython" / "profile_default"
    profile.mkdir(parents=True)
    (profile / "ipython_kernel_config.py").write_text(
        "c.InteractiveShell.ast_node_interactivity = 'all'\n")

    async def scenario() -> list[str]:
        configured = await start(tmp_path / "configured",
                                 {"IPYTHONDIR": str(tmp_path / "ipython")})
        usual = await start(tmp_path / "usual")
        try:
            expression = ("[getattr(get_ipython(), '_mathgames_built_in_template', False),"
                          " get_ipython().ast_node_interactivity]")
            return [await evaluate(configured, expression), await evaluate(usual, expression)]
        finally:
            await configured.shutdown_kernel(now=True)
            await usual.shutdown_kernel(now=True)

    configured, usual = in_own_loop(scenario())
    assert configured == "[False, 'all']"
    assert usual == "[True, 'last_expr']"
