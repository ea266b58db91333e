"""Serve the Voila app: ``python -m mathgames.server.serve`` (what ``make app`` runs).

The app's server is Voila's standalone server (:mod:`mathgames.server.app`):
the landing page at ``/``, every notebook of the notebooks folder (and its
subfolders) as a page at ``/voila/render/<path>``, their static files and their
kernels' websockets, and nothing else: no JupyterLab, no Notebook, no
terminals, no contents API, no kernel started except by rendering a page, and
the browser may not ask a kernel to execute code.

- Loopback by default. ``--classroom`` serves on the computer's network address,
  prints the address students type and shows it, with a QR code, on the landing page.
- ``--password`` (or ``MATHGAMES_PASSWORD``) puts a class password page in front of
  every page.
- ``--max-kernels`` caps the pages open at once (default: :func:`default_max_kernels`,
  from the computer's memory, see :mod:`mathgames.server.admission`); past it, or when a
  page would make the computer swap, visitors get a translated "busy" page.
- The kernel of a closed, reloaded or left page ends within about 15 s; that of a page
  that never connected within 5 minutes, 20 s when the server is near its limit or
  one address held more than 4 such pages for 5 s (a flood: it then gets no page
  while the server is near its limit, and a full server ends its pages first).
- ``--trusted-proxy ADDR`` (or ``MATHGAMES_TRUSTED_PROXY``): a reverse proxy in front
  of the server, whose ``X-Forwarded-For`` then names each visitor's address (for the
  password throttle and the per-address rules); without it that header is ignored.
- ``--lab`` runs JupyterLab for developers instead, on loopback with a token.

>>> cmd = server_command(Path("notebooks"), port=8866)
>>> cmd[1:3], cmd[3:5]
(['-m', 'mathgames.server.serve'], ['--port', '8866'])
>>> "--classroom" in server_command(Path("notebooks"), 8866, classroom=True)
True
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import ipaddress
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from mathgames.core.places import DATA_VARIABLE, data_folder
from mathgames.core.served import SERVED_PAGE_VARIABLE
from mathgames.server.admission import (
    GUARD_MIN_MIB,
    PAGE_MIB,
    PLAIN_PAGE_MIB,
    RESERVE_MIB,
    memory_cap,
    page_mib,
    total_memory,
)
from mathgames.server.kernel_forks import fork_supported
from mathgames.server.places import notebooks_folder

__all__ = [
    "FORK_PROVISIONER",
    "KERNEL_BUDGET_MIB",
    "SERVER_SETTINGS",
    "TRUSTED_PROXY_VARIABLE",
    "add_server_options",
    "app_config",
    "default_max_kernels",
    "default_render_slots",
    "lab_command",
    "main",
    "run",
    "server_command",
    "trusted_proxies",
]

#: Jupyter settings of the app (also in the repository's jupyter_config.json, which
#: Binder's own Jupyter server reads through binder/start).
SERVER_SETTINGS: dict[str, dict[str, object]] = {
    "MappingKernelManager": {
        # A backstop: the app's server ends the kernel of a page that left within about
        # 20 s (mathgames.server.app.KernelReaper); Binder culls after 10 minutes.
        "cull_idle_timeout": 600,
        "cull_interval": 60,
        "cull_connected": False,
        "cull_busy": False,
        # A page's websocket waits this long for its kernel's first answer (default 60 s).
        "kernel_info_timeout": 300,
    },
    # A whole class opening pages at once queues its kernels on a small server: wait for a
    # kernel up to 5 minutes instead of Voila's 60 s (which leaves a blank page), and for a
    # cell's output up to 2 minutes after the cell finished instead of nbclient's 4 s
    # (which drops the output, the game's widget, when the server is busy).
    "VoilaExecutor": {"startup_timeout": 300, "iopub_timeout": 120},
    "VoilaConfiguration": {
        "show_tracebacks": False,
        "template": "lab",
        "theme": "light",
        "file_allowlist": [r".*\.(png|jpg|jpeg|svg|gif|css|js)"],
        # Notebook 7's JupyterLab extension cannot load in a Voila page (it only logs errors
        # there and costs every student's browser time): leave it out.
        "extension_denylist": ["@jupyter-notebook/lab-extension"],
    },
}

#: The kernel provisioner that forks kernels from a warm template (an entry point of
#: this package, see pyproject.toml).
FORK_PROVISIONER = "mathgames-fork"

#: Memory counted per open page by the memory rule (:data:`mathgames.server.admission.PAGE_MIB`).
KERNEL_BUDGET_MIB = PAGE_MIB

#: The environment variable that may name the trusted proxies (as ``--trusted-proxy``).
TRUSTED_PROXY_VARIABLE = "MATHGAMES_TRUSTED_PROXY"


def default_max_kernels(total_bytes: int | None = None, fork_kernels: bool = True) -> int:
    """The default cap on open pages: the memory less 1 GiB, at 64 MiB a page with forked
    kernels, or :data:`~mathgames.server.admission.PLAIN_PAGE_MIB` with plain ones
    (:func:`mathgames.server.admission.memory_cap`).

    >>> default_max_kernels(4 * 2**30), default_max_kernels(8 * 2**30)
    (48, 112)
    >>> default_max_kernels(16 * 2**30)
    240
    >>> default_max_kernels(8 * 2**30, fork_kernels=False) < default_max_kernels(8 * 2**30)
    True
    """
    return memory_cap(total_bytes, PAGE_MIB if fork_kernels else PLAIN_PAGE_MIB)


def trusted_proxies(options: list[str] | None, environ: dict[str, str] | None = None,
                    ) -> list[str]:
    """The proxies named by ``--trusted-proxy`` (repeated, or comma-separated), else by
    ``MATHGAMES_TRUSTED_PROXY``; each is checked to be an address or a network.

    >>> trusted_proxies(["10.0.0.2,10.0.0.3", "fd00::1"])
    ['10.0.0.2', '10.0.0.3', 'fd00::1']
    >>> trusted_proxies(None, {"MATHGAMES_TRUSTED_PROXY": "127.0.0.1"})
    ['127.0.0.1']
    >>> trusted_proxies(["haproxy"])
    Traceback (most recent call last):
    ...
    ValueError: --trusted-proxy: 'haproxy' is not an IP address or network
    """
    from mathgames.server.app import trusted_networks

    if options is None:
        options = [(environ if environ is not None else os.environ).get(
            TRUSTED_PROXY_VARIABLE, "")]
    found = [part.strip() for option in options for part in option.split(",") if part.strip()]
    trusted_networks(found)
    return found


def default_render_slots(cores: int | None = None) -> int:
    """Pages rendered at once by default: two per core (a class arriving at once is served
    in order, so most students get their page sooner; the last ones no later).

    >>> default_render_slots(2), default_render_slots(8)
    (4, 16)
    """
    return 2 * (cores or os.cpu_count() or 2)


def server_command(root: Path, port: int, *, classroom: bool = False,
                   max_kernels: int | None = None, ip: str | None = None,
                   fork_kernels: bool = True, render_slots: int | None = None) -> list[str]:
    """The command line of the app's server (``make app``) for a notebooks folder.

    A class password goes through the ``MATHGAMES_PASSWORD`` environment variable,
    which other users of the computer cannot read in its list of processes.
    """
    cmd = [sys.executable, "-m", "mathgames.server.serve", "--port", str(port),
           "--root", str(root)]
    if classroom:
        cmd.append("--classroom")
    if ip:
        cmd += ["--ip", ip]
    if max_kernels is not None:
        cmd += ["--max-kernels", str(max_kernels)]
    if not fork_kernels:
        cmd.append("--no-fork")
    if render_slots is not None:
        cmd += ["--render-slots", str(render_slots)]
    return cmd


def lab_command(root: Path, port: int, token: str) -> list[str]:
    """JupyterLab for developers: loopback only, and a token in every address."""
    cmd = [sys.executable, "-m", "jupyterlab", "--no-browser", f"--port={port}",
           "--port-retries=0", "--ServerApp.ip=127.0.0.1", f"--ServerApp.root_dir={root}",
           f"--IdentityProvider.token={token}"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")
    return cmd


#: The longest path of a kernel's socket below the connection root: Voila's folder
#: ``/voila_xxxxxxxx`` and jupyter_client's ``/kernel-<uuid>-ipc-<n>``.
_SOCKET_TAIL = len("/voila_xxxxxxxx/kernel-") + 36 + len("-ipc-9")


def connection_root(temporary: str | None = None, limit: int | None = None,
                    fallback: str = "/tmp", system: str | None = None) -> str | None:
    """The folder under which the server keeps its kernels' Unix sockets.

    The temporary folder (``tempfile.gettempdir()``, or ``temporary``) when a kernel's
    socket path below it fits in a Unix socket address (``limit``, zmq's
    ``IPC_PATH_MAX_LEN``: 107 bytes on Linux, 103 on macOS); else ``fallback``
    (``/tmp``), when it is a writable folder (macOS gives each user a long
    ``$TMPDIR`` under ``/var/folders``); else ``None``, and the kernels talk over
    loopback TCP instead, as always on Windows (``system``, by default ``os.name``).

    >>> connection_root("/tmp", limit=107)
    '/tmp'
    >>> connection_root("/var/folders/zz/" + "x" * 40 + "/T", limit=103)
    '/tmp'
    >>> connection_root("/" + "x" * 60, limit=103, fallback="/" + "y" * 60) is None
    True
    >>> connection_root("C:/Temp", limit=107, system="nt") is None  # Windows: TCP
    True
    """
    if (system or os.name) == "nt":  # kernels over ipc are not supported on Windows
        return None
    if limit is None:
        import zmq

        limit = getattr(zmq, "IPC_PATH_MAX_LEN", 0) or 103
    for folder in (temporary or tempfile.gettempdir(), fallback):
        if (len(os.fsencode(folder)) + _SOCKET_TAIL <= limit and os.path.isdir(folder)
                and os.access(folder, os.W_OK | os.X_OK)):
            return folder
    return None


def port_problem(ip: str, port: int) -> str | None:
    """Why the server could not listen on ``port`` at ``ip``, in words for the teacher,
    or ``None`` when it can (binding as tornado does, so closing connections do not count).

    >>> import socket
    >>> with socket.socket() as taken:
    ...     taken.bind(("127.0.0.1", 0))
    ...     taken.listen()
    ...     port = taken.getsockname()[1]
    ...     problem = port_problem("127.0.0.1", port)
    >>> problem.startswith(f"port {port} is already in use")
    True
    >>> port_problem("127.0.0.1", port) is None
    True
    >>> port_problem("192.0.2.1", 8866)  # an address of another computer
    'this computer has no address 192.0.2.1: leave --ip out to serve on its own address.'
    """
    family = socket.AF_INET6 if ":" in ip else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as tornado does
        try:
            probe.bind((ip or "0.0.0.0", port))
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                return (f"port {port} is already in use on this computer. If the app is "
                        f"already running, open http://localhost:{port}; to serve it again, "
                        f"choose another port: make app PORT={port + 1} (or --port {port + 1}).")
            if error.errno == errno.EACCES:
                return (f"port {port} is reserved for the administrator on this computer: "
                        "choose one above 1023, for example make app PORT=8866.")
            if error.errno == errno.EADDRNOTAVAIL:
                return (f"this computer has no address {ip}: leave --ip out to serve on its "
                        "own address.")
            return f"cannot serve on {ip}:{port}: {error.strerror or error}."
    return None


def unreachable_warning(class_url: str) -> str | None:
    """What to tell the teacher when the class address only works on this computer
    (no network: the address is loopback), else ``None``.

    >>> unreachable_warning("http://192.168.1.20:8866/") is None
    True
    >>> warning = unreachable_warning("http://127.0.0.1:8866/")
    >>> "students cannot reach http://127.0.0.1:8866/" in warning
    True
    """
    host = urlsplit(class_url).hostname or ""
    try:
        loopback = ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = host == "localhost"
    if not loopback:
        return None
    return (f"this computer has no network address, so students cannot reach "
            f"{class_url}. Connect it to the class's network (the school's Wi-Fi) and start "
            "the app again.")


def app_config(root: Path, port: int, ip: str, max_kernels: int, class_url: str = "",
               hashed_password: str = "", fork_kernels: bool = True,
               render_slots: int | None = None, proxies: list[str] | None = None) -> Any:
    """The traitlets configuration of the app's Voila server."""
    from traitlets.config import Config

    if render_slots is None:
        render_slots = default_render_slots()
    config = Config({section: dict(values) for section, values in SERVER_SETTINGS.items()})
    config.Voila.root_dir = str(root)
    config.Voila.port = port
    config.Voila.port_retries = 0
    config.Voila.ip = ip
    config.Voila.open_browser = False
    config.AppVoila.max_kernels = max_kernels
    # Kernels talk to the server over Unix sockets in its private connection folder: no
    # TCP port on the computer for any local user to reach, and no race for free ports
    # (a class starting 60 kernels at once lost one to "Address already in use").
    # Loopback TCP only where no folder is short enough for a socket's address.
    sockets = connection_root()
    if sockets is not None:
        config.Voila.connection_dir_root = sockets
        config.KernelManager.transport = "ipc"
    config.AppVoila.class_url = class_url
    config.AppVoila.trusted_proxies = list(proxies or [])
    # Voila runs each page's notebook anew, so notebook signatures matter nowhere: the
    # notary keeps them in memory with a key of this run (no signature database, no
    # signing key written in the teacher's Jupyter folder at the first page)
    config.NotebookNotary.db_file = ":memory:"
    config.NotebookNotary.secret = secrets.token_bytes(32)
    # Pages' kernels fork from a warm template (mathgames.server.kernel_forks): a page's
    # kernel starts in milliseconds instead of about 0.4 CPU seconds.
    config.AppVoila.fork_kernels = fork_kernels
    config.AppVoila.render_slots = render_slots
    # A page's cells run as soon as its kernel answers, not after 0.2 s of its quiet
    config.AsyncKernelManager.client_class = "mathgames.server.render.PromptKernelClient"
    if fork_kernels:
        config.KernelProvisionerFactory.default_provisioner_name = FORK_PROVISIONER
    if hashed_password:
        config.PasswordIdentityProvider.hashed_password = hashed_password
    return config


def add_server_options(parser: argparse.ArgumentParser, *, classroom: bool = True) -> None:
    """The app server's options (``--port``, ``--password``, ``--max-kernels`` ...) on
    ``parser``: this module's command line and ``mathgames app`` / ``mathgames class``
    (:mod:`mathgames.cli`) share them; ``classroom=False`` leaves ``--classroom`` out.

    >>> parser = argparse.ArgumentParser()
    >>> add_server_options(parser, classroom=False)
    >>> parser.parse_args(["--port", "9000", "--no-fork"]).port
    9000
    """
    parser.add_argument("--port", type=int, default=None,
                        help="the port (default 8866; 8888 with --lab)")
    parser.add_argument("--root", type=Path, default=None,
                        help="the folder of the app's notebooks (default: the repository's "
                             "notebooks/ when run from a checkout, else those installed with "
                             "the package)")
    if classroom:
        parser.add_argument("--classroom", action="store_true",
                            help="serve on this computer's network address, for a class")
    parser.add_argument("--ip", default=None,
                        help="listen on this address (default: loopback; "
                             "with --classroom: every interface)")
    parser.add_argument("--password", default=None,
                        help="a class password asked before every page "
                             "(or set MATHGAMES_PASSWORD)")
    memory = total_memory()
    here = f"{memory / 2**30:.1f} GiB" if memory else "unknown memory"
    page = page_mib()
    kind = "forked" if fork_supported() else "plain"
    parser.add_argument("--max-kernels", type=int, default=None,
                        help="at most this many pages open at once (default: the memory "
                             f"less {RESERVE_MIB} MiB, at {PAGE_MIB} MiB a page with forked "
                             f"kernels (Linux) or {PLAIN_PAGE_MIB} MiB with plain ones (macOS, "
                             f"Windows, MATHGAMES_FORK=0): 8 GiB admits "
                             f"{memory_cap(8 * 2**30)} or {memory_cap(8 * 2**30, PLAIN_PAGE_MIB)}"
                             f"; this computer ({here}, {kind} kernels) admits "
                             f"{memory_cap(memory, page)}; 0: no cap). Whatever the cap, "
                             "a page is refused while it would leave less than 1/32 of "
                             f"the memory (at least {GUARD_MIN_MIB} MiB) free: no swapping")
    parser.add_argument("--trusted-proxy", action="append", default=None, metavar="ADDR",
                        help="a reverse proxy in front of the server (an address or "
                             "network; repeat, or separate with commas; or set "
                             f"{TRUSTED_PROXY_VARIABLE}): the visitor's address is then "
                             "read from its X-Forwarded-For header, which is ignored from "
                             "anyone else")
    parser.add_argument("--render-slots", type=int, default=None,
                        help="render at most this many pages at once, the others in order "
                             f"(default: two per core, here {default_render_slots()}; 0: no "
                             "limit)")
    parser.add_argument("--no-fork", action="store_true",
                        help="start every page's kernel anew (plain kernels, as on macOS and "
                             "Windows, or MATHGAMES_FORK=0) instead of forking it from a warm "
                             "template (Linux)")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m mathgames.server.serve",
        description="Serve the mathgames app (Voila, app pages only).")
    add_server_options(parser)
    parser.add_argument("--lab", action="store_true",
                        help="run JupyterLab for developers instead (loopback, with a token)")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the server until interrupted (``python -m mathgames.server.serve``)."""
    parser = _parser()
    return run(parser.parse_args(argv), parser)


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Run the server with the parsed options of :func:`add_server_options` until
    interrupted; ``parser`` reports mistakes in them."""
    root = (args.root or notebooks_folder()).resolve()
    if not (root / "index.ipynb").exists():
        parser.error(f"{root} has no index.ipynb: name the app's notebooks folder with --root")
    if getattr(args, "lab", False):
        port = args.port or 8888
        token = secrets.token_urlsafe(24)
        print(f"mathgames: JupyterLab for developers on "
              f"http://127.0.0.1:{port}/lab?token={token}", flush=True)
        try:
            return subprocess.call(lab_command(root, port, token))
        except KeyboardInterrupt:
            return 0

    from jupyter_server.auth.security import passwd

    from mathgames.pages.address import CLASS_URL_VARIABLE, lan_address
    from mathgames.server.app import AppVoila

    port = args.port or 8866
    classroom = getattr(args, "classroom", False)
    password = args.password if args.password is not None else os.environ.get(
        "MATHGAMES_PASSWORD", "")
    fork_kernels = not args.no_fork and fork_supported()
    max_kernels = (default_max_kernels(fork_kernels=fork_kernels) if args.max_kernels is None
                   else args.max_kernels)
    try:
        proxies = trusted_proxies(args.trusted_proxy)
    except ValueError as error:
        parser.error(str(error))
    ip = args.ip or ("0.0.0.0" if classroom else "127.0.0.1")
    problem = port_problem(ip, port)
    if problem:
        print(f"mathgames: {problem}", file=sys.stderr, flush=True)
        return 1
    # the classroom's SQLite store (when MATHGAMES_STORE names none) in this system's data
    # folder; the pages' kernels inherit it
    os.environ[DATA_VARIABLE] = str(data_folder())
    # the pages' kernels run their cells before their browser connects (core/served.py)
    os.environ[SERVED_PAGE_VARIABLE] = "1"
    class_url = ""
    if classroom:
        host = (lan_address() or "127.0.0.1") if ip in ("0.0.0.0", "") else ip
        # MATHGAMES_PUBLIC_URL, when set, is the address students reach (a proxy, a name);
        # the class pages (the teacher's join address) read it too.
        public = os.environ.get("MATHGAMES_PUBLIC_URL", "").rstrip("/")
        class_url = f"{public}/" if public else f"http://{host}:{port}/"
        os.environ["MATHGAMES_PUBLIC_URL"] = class_url.rstrip("/")
        os.environ[CLASS_URL_VARIABLE] = class_url  # the kernels show it on the landing page
    else:
        os.environ.pop(CLASS_URL_VARIABLE, None)
    print(f"mathgames: serving the app on http://{'localhost' if ip == '127.0.0.1' else ip}"
          f":{port}  (Ctrl+C stops it)", flush=True)
    if class_url:
        print(f"mathgames: classroom mode. Students type: {class_url}", flush=True)
        warning = unreachable_warning(class_url)
        if warning:
            print(f"mathgames: {warning}", file=sys.stderr, flush=True)
    if proxies:
        print(f"mathgames: visitors' addresses from X-Forwarded-For of {', '.join(proxies)}",
              flush=True)
    print(f"mathgames: at most {max_kernels or 'unlimited'} pages open at once, while the "
          "memory holds them; kernels "
          + ("forked from a warm template" if fork_kernels else "started anew (plain)")
          + ("; a class password is required" if password else ""), flush=True)
    config = app_config(root, port, ip, max_kernels, class_url,
                        passwd(password) if password else "", fork_kernels,
                        args.render_slots, proxies)
    # Ctrl+C stops the server even when it was started with SIGINT ignored (as a
    # shell's background job is): Voila stops on KeyboardInterrupt
    signal.signal(signal.SIGINT, signal.default_int_handler)
    app = AppVoila(config=config)
    app.initialize([])
    # Ctrl+C while it starts (once it runs, Voila ends on it itself)
    with contextlib.suppress(KeyboardInterrupt):
        app.start()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
