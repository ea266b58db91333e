"""What one page costs: CPU seconds of the server and of its kernel, and the kernel's messages.

Two measures (README "A whole class at once", the second pass of issue 67):

- the default: the app's server (as ``bench/classroom_load.py`` starts it) on a copy of
  notebooks/, and pages opened one at a time (each kind once first, to warm the server),
  each kept 1.5 s after its widgets' state arrived; the CPU seconds (psutil) the server and
  its child processes (the kernel, the template that forked it) spent on it, median of
  ``--repeat``. ``header.ipynb`` is a page with the header only (the floor of any page);
- ``--messages``: each page's cells run in a plain kernel (``jupyter_client``) that first
  imported what the kernel template imports; the messages the kernel sent on iopub, by type
  (``comm_open`` by widget model), and the kernel's CPU seconds for the cells.

    .venv/bin/python bench/page_cpu.py
    .venv/bin/python bench/page_cpu.py --pages halma.ipynb join.ipynb --messages
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import nbformat
import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from classroom_load import AppServer  # noqa: E402

from tests.page_client import visit  # noqa: E402

PAGES = ["matematiko.ipynb", "halma.ipynb", "triomino.ipynb", "join.ipynb", "header.ipynb"]
HEADER_ONLY = 'from mathgames.pages.header import header\nheader("index.ipynb")'


def cpu_seconds(process: psutil.Process) -> float:
    times = process.cpu_times()
    return times.user + times.system


def notebooks_copy() -> Path:
    """notebooks/ in a new temporary folder, with ``header.ipynb`` (the header only)."""
    work = Path(tempfile.mkdtemp(prefix="mathgames-classroom-"))
    shutil.copytree(ROOT / "notebooks", work / "notebooks")
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(HEADER_ONLY)]
    nbformat.write(notebook, str(work / "notebooks" / "header.ipynb"))
    return work


async def one_page(server: AppServer, page: str) -> tuple[float, float]:
    """(server, kernels) CPU seconds for one page opened alone and kept 1.5 s."""
    children = {c.pid: cpu_seconds(c) for c in server.ps.children(recursive=True)}
    before = cpu_seconds(server.ps)
    opened = await visit(server.url, page, keep_open=True)
    await asyncio.sleep(1.5)
    spent = cpu_seconds(server.ps) - before
    kernels = 0.0
    for child in server.ps.children(recursive=True):
        try:
            kernels += cpu_seconds(child) - children.get(child.pid, 0.0)
        except psutil.Error:
            continue
    await opened.close()
    await asyncio.sleep(1.0)
    return spent, kernels


async def pages_cpu(pages: list[str], repeat: int, fork: bool) -> None:
    work = notebooks_copy()
    server = AppServer(work, None, fork)
    try:
        for page in pages:  # warm: each kind once
            await one_page(server, page)
        found: dict[str, list[tuple[float, float]]] = {page: [] for page in pages}
        for _ in range(repeat):
            for page in pages:
                found[page].append(await one_page(server, page))
    finally:
        server.stop()
        shutil.rmtree(work, ignore_errors=True)
    print(f"one page at a time, kernels {'forked' if fork else 'started anew'}: CPU s, "
          f"median of {repeat} (min)")
    for page, runs in found.items():
        server_s = [s for s, _ in runs]
        kernel_s = [k for _, k in runs]
        print(f"  {page:24s} server {statistics.median(server_s):.3f} ({min(server_s):.3f})"
              f"  kernel {statistics.median(kernel_s):.3f} ({min(kernel_s):.3f})")


def page_messages(page: str, folder: Path) -> None:
    from jupyter_client.manager import start_new_kernel

    notebook = json.loads((folder / page).read_text())
    codes = ["".join(cell["source"]) for cell in notebook["cells"]
             if cell["cell_type"] == "code"]
    manager, client = start_new_kernel(kernel_name="python3", cwd=str(folder))
    try:
        kernel = psutil.Process(manager.provisioner.pid)
        client.execute_interactive(
            "import importlib\nfrom mathgames.server.kernel_forks import PRELOAD\n"
            "for name in PRELOAD: importlib.import_module(name)\n"
            "from mathgames.core import i18n\nif hasattr(i18n, 'warm_up'): i18n.warm_up()",
            timeout=120)
        time.sleep(0.5)
        counts: collections.Counter[str] = collections.Counter()
        models: collections.Counter[str] = collections.Counter()

        def heard(message: dict) -> None:
            kind = message["header"]["msg_type"]
            if kind == "comm_msg":
                kind += f" ({message['content']['data'].get('method')})"
            if kind == "comm_open":
                models[message["content"]["data"]["state"].get("_model_name", "?")] += 1
            counts[kind] += 1

        before = cpu_seconds(kernel)
        for code in codes:
            client.execute_interactive(code, output_hook=heard, timeout=60)
        time.sleep(0.3)
        spent = cpu_seconds(kernel) - before
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
    print(f"{page}: {sum(counts.values())} messages, the kernel's CPU for the cells {spent:.2f} s")
    for kind, n in counts.most_common():
        print(f"  {kind:24s} {n:4d}")
    print("  comm_open by model: " + ", ".join(f"{name} {n}" for name, n in models.most_common()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", nargs="+", default=PAGES)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-fork", action="store_true", help="plain kernels (the server's)")
    parser.add_argument("--messages", action="store_true",
                        help="count each page's kernel messages instead (plain kernel)")
    args = parser.parse_args()
    if args.messages:
        work = notebooks_copy()
        try:
            for page in args.pages:
                page_messages(page, work / "notebooks")
        finally:
            shutil.rmtree(work, ignore_errors=True)
        return
    asyncio.run(pages_cpu(args.pages, args.repeat, not args.no_fork))


if __name__ == "__main__":
    main()
