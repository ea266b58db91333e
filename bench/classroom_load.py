"""A class at once, without browsers: N students open a game page at the same moment.

Starts the app's server (the ``make app`` command, its default kernel cap unless
``--max-kernels``) on loopback for each N, and simulates N students at the
protocol level with :mod:`tests.page_client`: each fetches a game page
(the four games in turn) over HTTP, then opens the page's kernel websocket and
waits until the widgets' state arrives: the page is usable then. Students stay on
their page until the round ends. It prints, for each N:

- served / busy / errors: pages that became usable, "busy" answers (the cap), and
  everything else (timeouts, refused connections, pages without a state);
- p50 / p95 / max: seconds until a served page was usable;
- CPU s per page: the server process and its kernels, by psutil (CPU time, not wall
  time: other work on the machine does not inflate it);
- peak memory: the largest sum of RSS over the server and its kernels;
- PSS per page: the proportional memory of the pages' kernels (what each really costs,
  its pages shared with the warm template counted in part) over the kernels running,
  measured once every student of the round is on their page; and the server's own PSS.

``--single K`` first opens K pages one after another on an idle server: the time a
lone student waits (the browser's own drawing, about 0.3 s more, is measured by
bench/voila_load.py). ``MATHGAMES_LOAD_LOGS=dir`` keeps the servers' logs.

    .venv/bin/python bench/classroom_load.py                    # N = 30, 60, 100, 200
    .venv/bin/python bench/classroom_load.py --sizes 10 --single 10
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import psutil
from tornado.httpclient import AsyncHTTPClient

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mathgames.server.serve import (  # noqa: E402
    default_max_kernels,
    default_render_slots,
    server_command,
)
from tests.page_client import PageVisit, visit  # noqa: E402

KEEP_LOGS = os.environ.get("MATHGAMES_LOAD_LOGS", "")  # a folder to keep the servers' logs in
GAME_PAGES = ["matematiko.ipynb", "triomino.ipynb", "halma.ipynb", "chinese_checkers.ipynb"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def machine_idle_seconds() -> float:
    """Seconds all the machine's cores have been idle since it started (``/proc/stat``;
    NaN where there is none)."""
    try:
        fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    except OSError:
        return float("nan")
    return (int(fields[3]) + int(fields[4])) / os.sysconf("SC_CLK_TCK")  # idle + iowait


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


@dataclass
class Sampler:
    """CPU seconds and RSS of the server and its kernels, sampled while a round runs."""

    server: psutil.Process
    cpu: dict[int, tuple[str, float]] = field(default_factory=dict)
    peak_mib: float = 0.0
    peak_kernels: int = 0

    def sample(self) -> None:
        rss = 0
        kernels = 0
        for proc in [self.server, *self.server.children(recursive=True)]:
            try:
                times = proc.cpu_times()
                what = "server" if proc.pid == self.server.pid else "kernels"
                self.cpu[proc.pid] = (what, times.user + times.system)
                rss += proc.memory_info().rss
                kernels += what == "kernels"
            except psutil.Error:
                continue
        self.peak_mib = max(self.peak_mib, rss / 2**20)
        self.peak_kernels = max(self.peak_kernels, kernels)

    def pss_mib(self) -> tuple[float, float, int]:
        """(the server's PSS, its kernels' PSS, how many kernels) in MiB, now."""
        server = kernels = 0.0
        count = 0
        for proc in [self.server, *self.server.children(recursive=True)]:
            try:
                pss = proc.memory_full_info().pss / 2**20
                if proc.pid == self.server.pid:
                    server = pss
                elif any("ipykernel" in part for part in proc.cmdline()):
                    kernels += pss
                    count += 1
            except psutil.Error:
                continue
        return server, kernels, count

    def totals(self) -> dict[str, float]:
        found = {"server": 0.0, "kernels": 0.0}
        for what, seconds in self.cpu.values():
            found[what] += seconds
        return found

    async def run(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            self.sample()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(stop.wait(), 0.5)


class AppServer:
    """The ``make app`` command on a copy of notebooks/, on a free loopback port (with
    ``classroom``, ``make app CLASSROOM=1``; ``env``: the server's environment)."""

    def __init__(self, workdir: Path, max_kernels: int | None, fork: bool = True,
                 classroom: bool = False, env: dict[str, str] | None = None,
                 render_slots: int | None = None) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = workdir / f"server-{self.port}.log"
        self.log = self.log_path.open("w")
        self.process = subprocess.Popen(
            server_command(workdir / "notebooks", self.port, classroom=classroom,
                           max_kernels=max_kernels, fork_kernels=fork,
                           render_slots=render_slots),
            stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True, cwd=ROOT,
            env=env)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
            try:
                connection.request("GET", "/")
                if connection.getresponse().status == 302:
                    break
            except (OSError, http.client.HTTPException):
                time.sleep(0.3)
            finally:
                connection.close()
        else:
            raise RuntimeError(f"the app's server did not start; see {self.log_path}")
        self.ps = psutil.Process(self.process.pid)

    def stop(self) -> None:
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        self.log.close()
        if KEEP_LOGS:
            Path(KEEP_LOGS).mkdir(parents=True, exist_ok=True)
            shutil.copy(self.log.name, Path(KEEP_LOGS) / Path(self.log.name).name)


async def single(server: AppServer, count: int) -> list[float]:
    """Seconds until a usable page, for ``count`` pages opened one after another."""
    times = []
    for i in range(count):
        page = await visit(server.url, GAME_PAGES[i % len(GAME_PAGES)], keep_open=True)
        if page.usable_seconds is not None:
            times.append(page.usable_seconds)
        else:
            print(f"  single page failed: {page.status} {page.error}", flush=True)
        await page.close()
        await asyncio.sleep(1.0)
    return times


async def classroom(server: AppServer, n: int, timeout: float) -> dict[str, object]:
    sampler = Sampler(server.ps)
    sampler.sample()
    before = sampler.totals()
    stop = asyncio.Event()
    watching = asyncio.ensure_future(sampler.run(stop))
    idle_before = machine_idle_seconds()
    client_before = time.process_time()
    start = time.monotonic()
    visits: list[PageVisit] = await asyncio.gather(*(
        visit(server.url, GAME_PAGES[i % len(GAME_PAGES)], timeout=timeout, keep_open=True)
        for i in range(n)))
    wall = time.monotonic() - start
    client_cpu = time.process_time() - client_before
    idle = machine_idle_seconds() - idle_before
    sampler.sample()
    server_pss, kernels_pss, counted = sampler.pss_mib()
    stop.set()
    await watching
    after = sampler.totals()
    served = [v for v in visits if v.status == 200 and v.usable_seconds is not None]
    busy = [v for v in visits if v.busy]
    errors = [v for v in visits if v not in served and v not in busy]
    for why in sorted({f"{v.status} {v.error}" for v in errors})[:5]:
        print(f"  error: {why}", flush=True)
    times = [v.usable_seconds for v in served if v.usable_seconds is not None]
    await asyncio.gather(*(v.close() for v in visits))
    pages = max(len(served), 1)
    return {
        "n": n, "served": len(served), "busy": len(busy), "errors": len(errors),
        "p50": statistics.median(times) if times else float("nan"),
        "p95": percentile(times, 0.95) if times else float("nan"),
        "max": max(times) if times else float("nan"), "wall": wall,
        "server_cpu": (after["server"] - before["server"]) / pages,
        "kernel_cpu": (after["kernels"] - before["kernels"]) / pages,
        "peak_gib": sampler.peak_mib / 1024, "kernels": sampler.peak_kernels,
        "server_pss": server_pss, "page_pss": kernels_pss / max(counted, 1),
        "client_cpu": client_cpu / pages,
        "idle": idle / (wall * (os.cpu_count() or 1)) if wall else float("nan"),
    }


async def main_async(args: argparse.Namespace) -> None:
    AsyncHTTPClient.configure(None, max_clients=max(args.sizes) + 10)
    workdir = Path(tempfile.mkdtemp(prefix="mathgames-classroom-"))
    shutil.copytree(ROOT / "notebooks", workdir / "notebooks")
    cap = (default_max_kernels(fork_kernels=not args.no_fork) if args.max_kernels is None
           else args.max_kernels)
    rows = []
    lone: list[float] = []
    try:
        if args.single:
            server = AppServer(workdir, args.max_kernels, not args.no_fork)
            try:
                lone = await single(server, args.single)
            finally:
                server.stop()
        for n in args.sizes:
            server = AppServer(workdir, args.max_kernels, not args.no_fork,
                               render_slots=args.render_slots)
            try:
                row = await classroom(server, n, args.timeout)
            finally:
                server.stop()
            rows.append(row)
            print(f"  done: N={n}: served {row['served']}, busy {row['busy']}, "
                  f"errors {row['errors']}", flush=True)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print()
    print(f"Classroom load on {os.cpu_count()} cores (load average {load:.1f} at the end), "
          f"kernel cap {cap}, {default_render_slots()} pages rendered at once, kernels "
          f"{'started anew' if args.no_fork else 'forked from a warm template'}; "
          f"game pages in turn: {', '.join(GAME_PAGES)}")
    print("usable: the page's HTML received and its widgets' state arrived over the kernel's"
          " websocket; CPU s per served page (psutil)")
    if lone:
        print(f"single student, {len(lone)} pages one after another: p50 "
              f"{statistics.median(lone):.2f} s, p95 {percentile(lone, 0.95):.2f} s, "
              f"max {max(lone):.2f} s")
    print(f"{'N':>4} {'served':>7} {'busy':>5} {'errors':>7} {'p50 s':>7} {'p95 s':>7}"
          f" {'max s':>7} {'server CPU s/page':>18} {'kernel CPU s/page':>18}"
          f" {'peak GiB':>9} {'kernels':>8} {'PSS MiB/page':>13} {'server PSS MiB':>15}"
          f" {'wall s':>7} {'client CPU s/page':>18} {'idle':>5}")
    for row in rows:
        print(f"{row['n']:>4} {row['served']:>7} {row['busy']:>5} {row['errors']:>7}"
              f" {row['p50']:>7.1f} {row['p95']:>7.1f} {row['max']:>7.1f}"
              f" {row['server_cpu']:>18.3f} {row['kernel_cpu']:>18.3f}"
              f" {row['peak_gib']:>9.2f} {row['kernels']:>8} {row['page_pss']:>13.1f}"
              f" {row['server_pss']:>15.0f} {row['wall']:>7.1f} {row['client_cpu']:>18.2f}"
              f" {row['idle']:>5.0%}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[30, 60, 100, 200])
    parser.add_argument("--single", type=int, default=20,
                        help="pages opened one by one on an idle server first (0: none)")
    parser.add_argument("--no-fork", action="store_true",
                        help="start every kernel anew (the server's --no-fork), to compare")
    parser.add_argument("--max-kernels", type=int, default=None,
                        help="the server's kernel cap (default: the app's own default)")
    parser.add_argument("--render-slots", type=int, default=None,
                        help="pages the server renders at once (default: the app's own)")
    parser.add_argument("--timeout", type=float, default=300,
                        help="seconds a student waits for a page before it counts as an error")
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
