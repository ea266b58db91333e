"""Serve the Voila app: ``python -m mathgames.app.serve`` (what ``make app`` runs).

It starts a Jupyter server with the Voila extension on loopback, with the
landing page ``index.ipynb`` of the notebooks folder as its front page, and with
kernel culling switched on so that a classroom's server does not fill up with
the kernels of closed pages. The same settings stand in the repository's
``jupyter_config.json``, which Binder reads.

>>> cmd = server_command(Path("notebooks"), port=8866)
>>> cmd[1:4]
['-m', 'jupyter', 'server']
>>> "--ServerApp.default_url=/voila/render/index.ipynb" in cmd
True
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

__all__ = ["SERVER_SETTINGS", "main", "server_command"]

#: Jupyter settings of the app (also in the repository's jupyter_config.json).
SERVER_SETTINGS: dict[str, dict[str, object]] = {
    "MappingKernelManager": {
        # A page that was closed leaves an idle kernel: end it after 10 minutes.
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


def _flag(section: str, name: str, value: object) -> str:
    if isinstance(value, bool):
        text = str(value)
    elif isinstance(value, list):
        text = "[" + ",".join(repr(item) for item in value) + "]"
    else:
        text = str(value)
    return f"--{section}.{name}={text}"


def server_command(root: Path, port: int, ip: str = "127.0.0.1",
                   landing: str = "index.ipynb") -> list[str]:
    """The command line of the app's server for a notebooks folder."""
    cmd = [
        sys.executable, "-m", "jupyter", "server",
        "--no-browser",
        f"--port={port}",
        "--port-retries=0",
        f"--ServerApp.ip={ip}",
        f"--ServerApp.root_dir={root}",
        f"--ServerApp.default_url=/voila/render/{landing}",
        "--IdentityProvider.token=",
        "--ServerApp.password=",
        "--ServerApp.disable_check_xsrf=False",
    ]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")
    for section, settings in SERVER_SETTINGS.items():
        cmd += [_flag(section, name, value) for name, value in settings.items()]
    return cmd


def main(argv: list[str] | None = None) -> int:
    """Run the server until interrupted."""
    parser = argparse.ArgumentParser(description="Serve the mathgames Voila app.")
    parser.add_argument("--port", type=int, default=8866)
    parser.add_argument("--ip", default="127.0.0.1")
    parser.add_argument("--root", type=Path, default=Path("notebooks"),
                        help="the folder of the app's notebooks (default: notebooks)")
    args = parser.parse_args(argv)
    root = args.root.resolve()
    if not (root / "index.ipynb").exists():
        parser.error(f"{root} has no index.ipynb: run this from the repository's top folder")
    print(f"mathgames: serving the app on http://localhost:{args.port}  (Ctrl+C stops it)",
          flush=True)
    try:
        return subprocess.call(server_command(root, args.port, args.ip))
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
