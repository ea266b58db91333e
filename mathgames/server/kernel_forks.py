"""Kernels forked from a warm template process: a page's kernel in milliseconds.

Starting a Python kernel the usual way costs about 0.4 CPU seconds before the page's
first cell runs: a new interpreter imports IPython, ipykernel, ipywidgets and the
game. On a two-core class server that is most of what a page costs. Here the app's
server starts one *template* process (:func:`template_main`) that imports all of
that once and then waits on a private Unix socket. For each page's kernel the server
asks it to ``fork()``: the child already has everything imported and only starts the
kernel itself (its sockets, its shell). Pages share the template's memory pages
until they change them, so a class also needs less memory.

:class:`ForkProvisioner` is a Jupyter kernel provisioner (registered as
``mathgames-fork`` under ``jupyter_client.kernel_provisioners``): it launches a
Python kernel through the template and, when it cannot (another kernel, another
Python, the template gone), launches it the usual way. The forked kernel is the
same kernel as a launched one: the same ``ipykernel`` application with the same
connection file, environment (so ``?lang=`` reaches the page) and folder, its own
session and process group, and a fresh random seed.

Forked kernels run on Linux only (:func:`fork_supported`). On macOS, CPython's own
multiprocessing stopped forking by default (3.8) because Apple's system libraries
(Objective-C runtime, CoreFoundation, Accelerate, reached through NumPy and the
GUI-less parts of Matplotlib) are not safe to use in a child forked from a process
with threads, and Python 3.12 warns about ``os.fork()`` in a process with threads on
every system: a page's kernel there could crash or hang at random, which a class
cannot afford. Windows has no ``fork()``. There the server starts every page's kernel
the usual way (plain kernels); ``MATHGAMES_FORK=0`` does the same on Linux. The module
still imports everywhere: the server reads :func:`fork_supported` before it uses
anything Unix-only here (``fork``, ``AF_UNIX``, ``SIGCHLD``).

The requests are small JSON documents, one per connection:

>>> request = fork_request(["python", "-m", "ipykernel_launcher", "-f", "/k.json"],
...                        {"QUERY_STRING": "lang=pl"}, "/srv/notebooks")
>>> request["argv"], request["cwd"]
(['-f', '/k.json'], '/srv/notebooks')
>>> fork_request(["/usr/bin/R", "--kernel"], {}, "/") is None
True
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import gc
import importlib
import json
import os
import random
import select
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from jupyter_client.provisioning import LocalProvisioner

from mathgames.server import kernel_shell

__all__ = [
    "FORK_VARIABLE",
    "PRELOAD",
    "PROFILE_VARIABLE",
    "ForkProvisioner",
    "ForkedProcess",
    "KernelTemplate",
    "fork_request",
    "fork_supported",
    "kernel_config",
    "read_command_line_as",
    "template_main",
    "without_subshells",
]

#: The environment variable that turns forked kernels off (``MATHGAMES_FORK=0``).
FORK_VARIABLE = "MATHGAMES_FORK"

#: Benches only: a folder where each forked kernel writes a cProfile of its first 1.5 s
#: (``kernel-<pid>.prof``: its start and the page's cells; see README "A whole class at once").
PROFILE_VARIABLE = "MATHGAMES_KERNEL_PROFILE"

#: What the template imports before it forks: everything a game page's kernel needs.
PRELOAD = (
    "ipykernel.kernelapp",
    "ipykernel.ipkernel",
    "ipykernel.zmqshell",
    "ipykernel.comm",
    "ipykernel.debugger",
    "IPython.core.interactiveshell",
    # what a kernel's start imports late (its debugger, completer, inspector, %store): in
    # each kernel they were a third of its start
    "pdb",
    "IPython.core.debugger",
    "IPython.core.completerlib",
    "IPython.core.oinspect",
    "IPython.extensions.storemagic",
    "ipywidgets",
    "anywidget",
    "mathgames.pages.header",
    "mathgames.lessons.kit",
    "mathgames.triomino.widget",
    "mathgames.matematiko.widget",
    "mathgames.halma.widget",
    # the class's pages: the join page is on every student's way in (the teacher's page,
    # one a class, imports charts and pandas: 80 MiB more in the template, not preloaded)
    "mathgames.pages.join",
    "mathgames.pages.table",
)

_LAUNCHER_MODULES = ("ipykernel_launcher", "ipykernel")
#: The private folder of a template's socket: ``<prefix><random>`` in the temporary folder.
FOLDER_PREFIX = "mathgames-kernels-"
_MAX_REQUEST = 1 << 20  # the environment of a kernel is a few kilobytes


def fork_supported(platform: str | None = None, environ: dict[str, str] | None = None,
                   ) -> bool:
    """Whether pages' kernels may fork from a template here: on Linux (where ``os.fork``
    exists and is safe for this), unless ``MATHGAMES_FORK=0`` (or ``no``, ``false``).

    >>> fork_supported("linux", {}), fork_supported("linux", {"MATHGAMES_FORK": "0"})
    (True, False)
    >>> fork_supported("darwin", {}), fork_supported("win32", {})
    (False, False)
    """
    platform = sys.platform if platform is None else platform
    environ = dict(os.environ) if environ is None else environ
    if environ.get(FORK_VARIABLE, "").strip().lower() in ("0", "no", "false", "off"):
        return False
    return platform.startswith("linux") and (platform != sys.platform or hasattr(os, "fork"))


def fork_request(cmd: list[str], env: dict[str, str] | None, cwd: str | os.PathLike[str] | None,
                 ) -> dict[str, Any] | None:
    """The template's request for a kernel command line, or ``None`` if it is not one.

    Only ``<this Python> -m ipykernel_launcher ...`` (or ``-m ipykernel``) can be forked:
    the template runs this Python with these modules imported.
    """
    if len(cmd) < 3 or cmd[1] != "-m" or cmd[2] not in _LAUNCHER_MODULES:
        return None
    if cmd[0] not in ("python", "python3", sys.executable) and not _same_file(cmd[0],
                                                                             sys.executable):
        return None
    return {"argv": list(cmd[3:]), "env": dict(env or {}), "cwd": str(cwd or os.getcwd())}


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


# --- the template process ---------------------------------------------------------


def _read_message(conn: socket.socket) -> dict[str, Any]:
    size = int.from_bytes(_read_exactly(conn, 4), "big")
    if size > _MAX_REQUEST:
        raise ValueError(f"request of {size} bytes is too large")
    message = json.loads(_read_exactly(conn, size))
    if not isinstance(message, dict):
        raise ValueError("request is not a JSON object")
    return message


def _read_exactly(conn: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = conn.recv(size - len(data))
        if not chunk:
            raise ConnectionError("connection closed in the middle of a request")
        data += chunk
    return data


def _checked(request: dict[str, Any]) -> tuple[list[str], dict[str, str], str]:
    argv, env, cwd = request.get("argv"), request.get("env"), request.get("cwd")
    if not (isinstance(argv, list) and all(isinstance(a, str) for a in argv)):
        raise ValueError("argv must be a list of strings")
    if not (isinstance(env, dict) and all(isinstance(k, str) and isinstance(v, str)
                                          for k, v in env.items())):
        raise ValueError("env must map strings to strings")
    if not isinstance(cwd, str) or not os.path.isdir(cwd):
        raise ValueError(f"cwd is not a folder: {cwd!r}")
    return argv, env, cwd


def _become_kernel(argv: list[str], env: dict[str, str], cwd: str) -> None:
    """In the forked child: turn into the kernel the request asked for; never returns."""
    code = 1
    template = os.getppid()
    try:
        os.setsid()  # its own process group, as a launched kernel, for interrupts and kills
        for signum in (signal.SIGCHLD, signal.SIGTERM, signal.SIGPIPE, signal.SIGHUP):
            signal.signal(signum, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        os.chdir(cwd)
        os.environ.clear()
        os.environ.update(env)
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.close(devnull)
        random.seed()  # the template's state is shared by every fork: reseed from the OS
        numpy = sys.modules.get("numpy")
        if numpy is not None:
            numpy.random.seed()
        i18n = sys.modules.get("mathgames.core.i18n")
        if i18n is not None:  # imported by the template, before the page's ?lang= was known
            i18n.set_language(i18n.language_from_environment())
        sys.argv = [sys.executable, *argv]
        _set_title(f"{sys.executable} -m ipykernel_launcher {' '.join(argv)} (forked)")
        from ipykernel.kernelapp import IPKernelApp

        profile_dir = os.environ.get(PROFILE_VARIABLE)
        if profile_dir:  # bench only: the kernel's first 1.5 s, in a cProfile file
            import cProfile

            profiler = cProfile.Profile(time.thread_time)  # CPU, not waits
            profiler.enable()
        app = IPKernelApp.instance()
        # A page needs no input history: no history database for every kernel to write.
        # As a launched kernel watches its server (JPY_PARENT_PID), a forked one watches
        # the template, which ends when the server does: no kernel outlives its server.
        settings = [*argv, "--HistoryManager.enabled=False",
                    f"--IPKernelApp.parent_handle={template}"]
        config = kernel_config(argv, template)
        if config is not None:
            read_command_line_as(app, config)
            kernel_shell.adopt_in(app)
        else:
            kernel_shell.drop()
        without_subshells(app)
        app.initialize(settings)
        _as_if_imported_in_the_kernel()
        if profile_dir:
            from tornado.ioloop import IOLoop

            def dump() -> None:
                profiler.disable()
                profiler.dump_stats(os.path.join(profile_dir, f"kernel-{os.getpid()}.prof"))

            IOLoop.current().call_later(1.5, dump)
        app.start()
        code = 0
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else 1
    except BaseException:
        import traceback

        traceback.print_exc()
    finally:
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)


def kernel_config(argv: list[str], template: int) -> Any:
    """What a forked kernel's command line says, when it is the usual one (``-f FILE``, as
    Jupyter's Python kernel starts), with the forked kernel's own settings; ``None`` for
    any other command line (traitlets reads that one).

    >>> config = kernel_config(["-f", "/k.json"], 42)
    >>> config.IPKernelApp.connection_file, config.IPKernelApp.parent_handle
    ('/k.json', 42)
    >>> config.HistoryManager.enabled
    False
    >>> kernel_config(["-f", "/k.json", "--debug"], 42) is None
    True
    """
    if len(argv) != 2 or argv[0] != "-f":
        return None
    from traitlets.config import Config

    config = Config()
    config.IPKernelApp.connection_file = argv[1]
    config.IPKernelApp.parent_handle = template
    config.HistoryManager.enabled = False
    return config


def read_command_line_as(app: Any, config: Any) -> None:
    """Make ``app`` (a kernel application) take ``config`` as what its command line says.

    traitlets reads a command line with a parser of every option of every configurable
    class, built anew in each kernel: 6 ms of a forked kernel's 35 ms start, for the two
    words of ``-f FILE``. The application ends as traitlets would leave it: the same
    configuration, from the command line, and no argument left over.
    """

    def parse_command_line(argv: list[str] | None = None) -> None:
        app.argv = list(argv or [])
        app.cli_config = copy.deepcopy(config)
        app.update_config(app.cli_config)
        app.extra_args = []

    app.parse_command_line = parse_command_line


def without_subshells(app: Any) -> None:
    """Make the kernel application ``app`` (not yet initialized) read its shell messages in
    its main thread, as ipykernel 6 did.

    ipykernel 7 reads every shell message in a thread of its own and hands it to the main
    thread over a pair of in-process sockets, so that a client may open *subshells*
    (code run in threads of their own, JEP 91). A page never opens one, and that thread
    and its hand-over cost a tenth of a game page's kernel CPU. Such a kernel does not
    offer subshells (its ``kernel_info`` says so); everything else is as before.
    """
    plain_init_kernel = app.init_kernel

    def init_kernel() -> None:
        unused = app.shell_channel_thread  # made, never started: its event loop closed
        app.shell_channel_thread = None
        if unused is not None:
            unused.io_loop.close()
        plain_init_kernel()

    app.init_kernel = init_kernel


def _set_title(title: str) -> None:
    """What the list of processes (``ps``, ``top``) shows for this process."""
    try:
        from setproctitle import setproctitle
    except ImportError:  # only the list of processes is less clear
        return
    setproctitle(title)


def _as_if_imported_in_the_kernel() -> None:
    """What the preloaded modules do at import when a kernel runs: do it now.

    ipywidgets registers its comm targets (``jupyter.widget`` and the page's
    ``jupyter.widget.control``) when it is imported inside a kernel; the template
    imported it before there was one.
    """
    ipywidgets = sys.modules.get("ipywidgets")
    if ipywidgets is not None:
        ipywidgets.register_comm_target()


def _warm_up() -> None:
    """What every page makes on its first use and no page changes: make it once, here.

    - The translations' catalogs and Babel's number formats of the four languages (a
      game page formats numbers in its help: Babel's data for one language was about a
      third of the page's cells' CPU in each kernel).
    - The classes of the shared layout and style models (:func:`widget_looks.warm_up`).

    The kernel's IPython shell, and what its first cell compiles, is built after it
    (:func:`kernel_shell.build`).
    """
    for name in ("mathgames.core.i18n", "mathgames.core.widget_looks"):
        module = sys.modules.get(name)
        if module is not None:
            try:
                module.warm_up()
            except Exception as error:  # a page makes them itself then
                print(f"mathgames kernel template: cannot warm up {name}: {error}",
                      file=sys.stderr)


def template_main(socket_path: str, preload: tuple[str, ...] = PRELOAD) -> None:
    """Import ``preload``, then fork a kernel for each request on ``socket_path``.

    Ends when the server that started it ends, or on ``SIGTERM``, Ctrl+C or a closed
    terminal (which reach the terminal's whole group): quietly, and with its socket and the
    socket's private folder removed (see :func:`_remove_socket`). Children are
    reaped by the system (``SIGCHLD`` ignored), so an ended kernel leaves no zombie.
    """
    _set_title("mathgames kernel template")
    if sys.path and (sys.path[0] in ("", os.getcwd())):
        del sys.path[0]  # as ipykernel_launcher: the kernel adds its own folder itself
    for name in preload:
        try:
            importlib.import_module(name)
        except Exception as error:
            print(f"mathgames kernel template: cannot preload {name}: {error}", file=sys.stderr)
    _warm_up()
    if "ipykernel.ipkernel" in sys.modules:
        try:
            kernel_shell.build(kernel_config(["-f", os.devnull], os.getpid()))
        except Exception as error:  # each kernel builds its own then
            print(f"mathgames kernel template: cannot build the shell: {error}",
                  file=sys.stderr)
            kernel_shell.drop()
    # What the template made lives as long as every kernel: out of the garbage collector's
    # sight. A kernel's collections then walk only what it made itself (a full one walked
    # the template's 60,000 objects, 0.03 s, and wrote to every memory page they are in, so
    # the kernel had to copy those pages from the template)
    gc.collect()
    gc.freeze()
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        if signal.getsignal(signum) is not signal.SIG_IGN:  # as its server (nohup)
            signal.signal(signum, _end)
    parent = os.getppid()
    me = os.getpid()
    try:
        _serve_forks(socket_path, parent)
    except SystemExit:
        pass
    finally:
        if os.getpid() == me:  # never in a forked kernel (it ends by os._exit anyway)
            _remove_socket(socket_path)


def _end(signum: int, frame: object) -> None:
    """The template's handler for ``SIGTERM``, ``SIGINT`` and ``SIGHUP``: end, cleaning up."""
    raise SystemExit(0)


def _remove_socket(socket_path: str) -> None:
    """Remove the template's socket, and its folder if it is one of ours and empty.

    >>> folder = tempfile.mkdtemp(prefix=FOLDER_PREFIX)
    >>> path = os.path.join(folder, "template.sock")
    >>> open(path, "w").close()
    >>> _remove_socket(path)
    >>> os.path.exists(folder)
    False
    """
    with contextlib.suppress(OSError):
        os.unlink(socket_path)
    folder = os.path.dirname(socket_path)
    if os.path.basename(folder).startswith(FOLDER_PREFIX):
        with contextlib.suppress(OSError):
            os.rmdir(folder)


def _serve_forks(socket_path: str, parent: int) -> None:
    """Fork a kernel for each request on ``socket_path`` while ``parent`` lives."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server:
        server.bind(socket_path)
        os.chmod(socket_path, 0o600)
        server.listen(64)
        server.settimeout(1.0)
        print("ready", flush=True)
        # From now on this process and its kernels write to the server's log, not to the
        # pipe the server read "ready" from (a full pipe would block every kernel).
        sys.stdout.flush()
        os.dup2(2, 1)
        while os.getppid() == parent:
            try:
                conn, _ = server.accept()
            except TimeoutError:
                continue
            with conn:
                conn.settimeout(5.0)
                try:
                    argv, env, cwd = _checked(_read_message(conn))
                except (ValueError, ConnectionError, OSError) as error:
                    _reply(conn, {"error": str(error)})
                    continue
                pid = os.fork()
                if pid == 0:
                    server.close()
                    conn.close()
                    _become_kernel(argv, env, cwd)
                _reply(conn, {"pid": pid})


def _reply(conn: socket.socket, message: dict[str, Any]) -> None:
    data = json.dumps(message).encode()
    with contextlib.suppress(OSError):
        conn.sendall(len(data).to_bytes(4, "big") + data)


# --- the server's side ------------------------------------------------------------


class KernelTemplate:
    """The server's handle on its template process (one per server).

    >>> KernelTemplate.current() is None  # until the app's server starts one
    True
    """

    _current: KernelTemplate | None = None

    def __init__(self, preload: tuple[str, ...] = PRELOAD, folder: str | None = None) -> None:
        self.folder = tempfile.mkdtemp(prefix=FOLDER_PREFIX, dir=folder)
        os.chmod(self.folder, 0o700)
        self.socket_path = str(Path(self.folder) / "template.sock")
        code = ("import os, sys; from mathgames.server.kernel_forks import template_main; "
                "template_main(sys.argv[1], tuple(os.environ.pop("
                "'MATHGAMES_PRELOAD', '').split()))")
        env = {**os.environ, "MATHGAMES_PRELOAD": " ".join(preload),
               # debugpy (imported with ipykernel's debugger) warns of frozen modules
               "PYDEVD_DISABLE_FILE_VALIDATION": "1"}
        self.process = subprocess.Popen(
            [sys.executable, "-c", code, self.socket_path], env=env,
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True)

    @classmethod
    def start(cls, preload: tuple[str, ...] = PRELOAD, timeout: float = 120.0,
              folder: str | None = None) -> KernelTemplate | None:
        """Start the template, wait until it is ready, and make it the current one.

        Its socket goes in a new private folder under ``folder`` (by default the
        temporary folder); ``None`` if it did not start within ``timeout`` seconds."""
        template = cls(preload, folder)
        line = ""
        out = template.process.stdout
        try:
            if out is not None and select.select([out], [], [], timeout)[0]:
                line = out.readline()  # "ready", or "" if it died
        except BaseException:  # Ctrl+C while it starts: leave nothing behind
            template.stop()
            raise
        if out is not None:
            out.close()  # the template writes to the server's log from now on
        if line.strip() != "ready":
            template.stop()
            return None
        cls._current = template
        return template

    @classmethod
    def current(cls) -> KernelTemplate | None:
        """The running template, or ``None``."""
        template = cls._current
        if template is not None and template.process.poll() is not None:
            cls._current = None
            return None
        return template

    async def fork(self, request: dict[str, Any]) -> int:
        """A new kernel process for ``request`` (see :func:`fork_request`): its pid."""
        reader, writer = await asyncio.open_unix_connection(self.socket_path)
        try:
            data = json.dumps(request).encode()
            writer.write(len(data).to_bytes(4, "big") + data)
            await writer.drain()
            size = int.from_bytes(await reader.readexactly(4), "big")
            answer = json.loads(await reader.readexactly(size))
        finally:
            writer.close()
            with contextlib.suppress(OSError, ConnectionError):
                await writer.wait_closed()
        if "pid" not in answer:
            raise RuntimeError(f"the kernel template refused: {answer.get('error')}")
        return int(answer["pid"])

    def stop(self) -> None:
        """End the template (its kernels live on until the server ends them)."""
        if self.process.poll() is None:
            self.process.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(5)
        if self.process.poll() is None:
            self.process.kill()
        _remove_socket(self.socket_path)
        if KernelTemplate._current is self:
            KernelTemplate._current = None


class ForkedProcess:
    """A forked kernel seen as a :class:`subprocess.Popen` (it is not our child)."""

    stdin = stdout = stderr = None

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            try:
                os.kill(self.pid, 0)
            except ProcessLookupError:
                self.returncode = 0  # reaped by the template: the exit code is not ours
            except PermissionError:  # the number went to someone else's process
                self.returncode = 0
            else:
                if _is_zombie(self.pid):
                    self.returncode = 0
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(str(self.pid), timeout or 0)
            time.sleep(0.05)
        return self.returncode or 0

    def send_signal(self, signum: int) -> None:
        if self.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signum)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


def _is_zombie(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[-1].split()[:1] == ["Z"]


class ForkProvisioner(LocalProvisioner):  # type: ignore[misc]
    """Launches Python kernels by forking the server's :class:`KernelTemplate`."""

    async def launch_kernel(self, cmd: list[str], **kwargs: Any) -> Any:
        template = KernelTemplate.current()
        request = fork_request(cmd, kwargs.get("env"), kwargs.get("cwd")) if template else None
        if template is None or request is None:
            return await super().launch_kernel(cmd, **kwargs)
        try:
            pid = await template.fork(request)
        except (OSError, RuntimeError, ValueError, asyncio.IncompleteReadError) as error:
            self.log.warning("mathgames: kernel template failed (%s): launching", error)
            return await super().launch_kernel(cmd, **kwargs)
        self.process = ForkedProcess(pid)
        self.pid = pid
        self.pgid = pid  # the child called setsid()
        self.cwd = kwargs.get("cwd", Path.cwd())
        return self.connection_info
