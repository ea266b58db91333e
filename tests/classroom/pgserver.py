"""A throwaway PostgreSQL server for the tests: initdb into a temporary folder,
listen on a unix socket only, stop and delete everything afterwards.

Debian's ``postgresql`` package (``/usr/lib/postgresql/<version>/bin``) provides
the server; PostgreSQL refuses to run as root, so as root the server runs as the
``postgres`` user (``runuser``). ``.ci/run`` installs the package when missing.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path


def postgres_bin() -> Path | None:
    """The newest installed PostgreSQL server's bin folder, if any."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/postgres"),
                   key=lambda p: int(Path(p).parent.parent.name))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class PostgresServer:
    """A running throwaway server; :attr:`url` is a psycopg connection URL."""

    def __init__(self) -> None:
        bindir = postgres_bin()
        if bindir is None:
            raise RuntimeError("PostgreSQL is not installed: apt-get install postgresql")
        self.root = Path(tempfile.mkdtemp(prefix="mathgames-pg-"))
        self.root.chmod(0o755)
        self.data = self.root / "data"
        self.sockets = self.root / "sock"
        self.data.mkdir()
        self.sockets.mkdir()
        self.port = _free_port()
        as_root = os.geteuid() == 0
        prefix = ["runuser", "-u", "postgres", "--"] if as_root else []
        if as_root:
            shutil.chown(self.data, "postgres")
            shutil.chown(self.sockets, "postgres")
        user = "postgres" if as_root else os.environ.get("USER", "postgres")
        subprocess.run([*prefix, str(bindir / "initdb"), "-D", str(self.data), "-U", user,
                        "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"],
                       check=True, capture_output=True)
        self.log = (self.root / "server.log").open("w")
        self._command = [
            *prefix, str(bindir / "postgres"), "-D", str(self.data), "-k", str(self.sockets),
            "-p", str(self.port), "-c", "listen_addresses=", "-c", "fsync=off",
            "-c", "max_connections=200", "-c", "shared_buffers=32MB"]
        self.url = f"postgresql://{user}@/postgres?host={self.sockets}&port={self.port}"
        self.start()

    def start(self) -> None:
        """Start the server (again, after :meth:`halt`: same data, same address)."""
        self.process = subprocess.Popen(self._command, stdout=self.log,
                                        stderr=subprocess.STDOUT, start_new_session=True)
        self._wait_ready()

    def halt(self) -> None:
        """Stop the server as an administrator's restart does (a fast shutdown: every
        connection is cut), keeping its data for :meth:`start`."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGINT)
            self.process.wait(timeout=60)

    def _wait_ready(self, timeout: float = 60) -> None:
        import psycopg

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError("PostgreSQL exited: "
                                   + (self.root / "server.log").read_text()[-2000:])
            try:
                psycopg.connect(self.url, connect_timeout=2).close()
                return
            except psycopg.OperationalError:
                time.sleep(0.2)
        raise RuntimeError("PostgreSQL did not start within a minute")

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGINT)  # fast shutdown
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self.log.close()
        shutil.rmtree(self.root, ignore_errors=True)


@contextlib.contextmanager
def store_urls(pg_url: str = "") -> Iterator[Callable[[str], str]]:
    """For a bench: ``url(backend)`` is the store URL for ``"sqlite"`` (a file in a
    temporary folder) or ``"postgresql"`` (``pg_url``, or a throwaway server started on
    first use); on leaving, what was started is stopped and removed.

    >>> with store_urls() as url:
    ...     url("sqlite").startswith("sqlite:///")
    True
    """
    folder = tempfile.TemporaryDirectory(prefix="mathgames-bench-")
    servers: list[PostgresServer] = []

    def url(backend: str) -> str:
        if backend == "sqlite":
            return f"sqlite:///{folder.name}/store.sqlite3"
        if pg_url:
            return pg_url
        if not servers:
            servers.append(PostgresServer())
        return servers[0].url

    try:
        yield url
    finally:
        for server in servers:
            server.stop()
        folder.cleanup()
