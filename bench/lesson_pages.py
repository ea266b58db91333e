"""Time to first chart of every lesson page in Voila, in every language.

(The mosaics lesson has no chart: its first figure counts.) A lesson unfolds in steps, its
charts waiting for the class's answers, so each page opens with the teacher's "Show
everything" switched on (as when the teacher prepares the lesson).

Starts the app's real server (the ``make app`` command, as the browser tests do) on a
free port, opens each lesson in headless Chromium and measures the wall-clock time from
asking for the page until its first chart (a bqplot figure) is visible. Each page is
opened ``--repeat`` times (a fresh kernel each time); the table shows the best and the
median. The figures are wall-clock times: on a machine shared with other work they are
longer than on an idle classroom server (compare the ``load`` column).

    .venv/bin/python bench/lesson_pages.py            # 4 lessons x 4 languages, 2 runs each
    .venv/bin/python bench/lesson_pages.py --repeat 3 --languages en pl
    .venv/bin/python bench/lesson_pages.py --cpu      # the kernel's CPU time per page instead

``--cpu`` runs each lesson in a kernel of its own (as Voila does) and reports the CPU
seconds that kernel used, from its start until every cell has run: the part of the time
to first chart that the server's load does not inflate.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.conftest import CHROMIUM_FLAGS, Server, chromium_path  # noqa: E402

LESSONS = ("triomino_combinatorics", "matematiko_probabilities", "board_geometry", "mosaics")
CHART = ".bqplot.figure"
#: The first picture of a lesson without a chart (the mosaics lesson draws figures as SVG).
FIRST_PICTURE = {"mosaics": ".jp-OutputArea-output svg"}


def page_path(lesson: str, language: str) -> str:
    return f"explore/{lesson}.ipynb" if language == "en" else f"explore/{language}/{lesson}.ipynb"


def kernel_cpu(path: Path) -> tuple[float, float]:
    """(CPU seconds of the kernel, wall seconds) to start a kernel and run a notebook."""
    import nbformat
    import psutil
    from nbclient import NotebookClient

    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(notebook, kernel_name="python3", timeout=300,
                            resources={"metadata": {"path": str(path.parent)}})
    start = time.perf_counter()
    with client.setup_kernel():
        process = psutil.Process(client.km.provisioner.process.pid)
        for index, cell in enumerate(notebook.cells):
            client.execute_cell(cell, index)
        used = process.cpu_times()
        wall = time.perf_counter() - start
    return used.user + used.system, wall


def cpu_table(languages: list[str]) -> int:
    print("| lesson | language | kernel CPU (s) | wall (s) | load (1 min) |")
    print("|---|---|---|---|---|")
    for lesson in LESSONS:
        for language in languages:
            cpu, wall = kernel_cpu(ROOT / "notebooks" / page_path(lesson, language))
            print(f"| {lesson} | {language} | {cpu:.2f} | {wall:.1f} | {os.getloadavg()[0]:.1f} |",
                  flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--languages", nargs="+", default=["en", "pl", "cs", "ru"])
    parser.add_argument("--cpu", action="store_true",
                        help="report each lesson kernel's CPU time instead of browser timings")
    args = parser.parse_args(argv)
    if args.cpu:
        return cpu_table(args.languages)
    from playwright.sync_api import sync_playwright

    served = Path(tempfile.mkdtemp()) / "notebooks"
    shutil.copytree(ROOT / "notebooks", served)
    server = Server(served, served.parent / "voila.log")
    rows = []
    try:
        server.wait_ready()
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium_path(), headless=True,
                                                 args=CHROMIUM_FLAGS)
            for lesson in LESSONS:
                for language in args.languages:
                    times = []
                    for _ in range(args.repeat):
                        context = browser.new_context(viewport={"width": 1280, "height": 900})
                        # a lesson unfolds in steps: its charts wait for the class's answers,
                        # so it opens as the teacher prepares it ("Show everything" on)
                        context.add_init_script(
                            f"localStorage.setItem('mathgames-lesson-open:explore/{lesson}', '1')")
                        page = context.new_page()
                        load = os.getloadavg()[0]
                        start = time.perf_counter()
                        page.goto(f"{server.url}/voila/render/{page_path(lesson, language)}"
                                  f"?lang={language}", wait_until="domcontentloaded")
                        first = page.locator(FIRST_PICTURE.get(lesson, CHART)).first
                        first.wait_for(state="visible", timeout=180_000)
                        times.append(time.perf_counter() - start)
                        context.close()
                    rows.append((lesson, language, min(times), statistics.median(times), load))
                    print(f"{lesson:26} {language}  best {min(times):5.1f} s", file=sys.stderr)
            browser.close()
    finally:
        server.stop()
        shutil.rmtree(served.parent, ignore_errors=True)
    print("| lesson | language | first chart, best (s) | median (s) | load (1 min) |")
    print("|---|---|---|---|---|")
    for lesson, language, best, median, load in rows:
        print(f"| {lesson} | {language} | {best:.1f} | {median:.1f} | {load:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
