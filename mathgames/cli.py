"""The ``mathgames`` command: the app on this computer, for a class, or JupyterLab.

Installed with the package (``pipx install "mathgames[app]"`` or ``pip install``),
on Linux, macOS and Windows alike; ``make app`` runs it too.

- ``mathgames app``: the app for this computer only (loopback), on http://localhost:8866.
- ``mathgames class [--password SECRET]``: classroom mode, on this computer's network
  address, which it prints and shows with a QR code on the landing page. It takes the
  options of ``python -m mathgames.server.serve`` (``--max-kernels``, ``--trusted-proxy``...).
- ``mathgames lab DIR``: JupyterLab on a copy of the app's notebooks in the folder
  ``DIR`` (made when missing; files already there are kept, never overwritten).

>>> parser = build_parser()
>>> args = parser.parse_args(["class", "--password", "owl", "--port", "9000"])
>>> args.command, args.password, args.port, args.classroom
('class', 'owl', 9000, True)
>>> parser.parse_args(["lab", "my-lessons"]).folder.name
'my-lessons'
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

__all__ = ["build_parser", "copy_notebooks", "main"]

_ABOUT = {
    "app": "Serve the app's games and lessons on this computer only (http://localhost:8866).",
    "class": "Serve the app to a class on this computer's network address, which students "
             "type or scan (with a QR code) on their devices.",
    "lab": "Copy the app's notebooks into a folder you name and open them in JupyterLab, "
           "to read or change them.",
}


def build_parser() -> argparse.ArgumentParser:
    """The command line of ``mathgames`` and its subcommands."""
    from mathgames.server.serve import add_server_options

    parser = argparse.ArgumentParser(
        prog="mathgames",
        description="Four maths games and their lessons, served to your browser or to a class.",
        epilog="Run 'mathgames COMMAND --help' for a command's options.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in ("app", "class"):
        command = commands.add_parser(name, help=_ABOUT[name], description=_ABOUT[name])
        add_server_options(command, classroom=False)
        command.set_defaults(classroom=name == "class", lab=False)
    lab = commands.add_parser("lab", help=_ABOUT["lab"], description=_ABOUT["lab"])
    lab.add_argument("folder", type=Path, metavar="DIR",
                     help="the folder for your copy of the notebooks (made when missing)")
    lab.add_argument("--port", type=int, default=8888, help="the port (default 8888)")
    return parser


def copy_notebooks(source: Path, folder: Path) -> list[Path]:
    """Copy the notebooks under ``source`` into ``folder``, keeping every file already
    there; the files copied.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as where:
    ...     source, mine = Path(where, "app"), Path(where, "mine")
    ...     (source / "explore").mkdir(parents=True)
    ...     _ = (source / "explore" / "a.ipynb").write_text("{}")
    ...     _ = (source / "b.ipynb").write_text("{}")
    ...     mine.mkdir()
    ...     _ = (mine / "b.ipynb").write_text("mine")
    ...     copied = copy_notebooks(source, mine)
    ...     [p.relative_to(mine).as_posix() for p in copied], (mine / "b.ipynb").read_text()
    (['explore/a.ipynb'], 'mine')
    """
    copied = []
    for path in sorted(source.rglob("*")):
        relative = path.relative_to(source)
        if path.is_dir() or any(part in ("__pycache__", ".ipynb_checkpoints")
                                for part in relative.parts):
            continue
        target = folder / relative
        if target.exists():
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, target)
        copied.append(target)
    return copied


def _lab(folder: Path, port: int) -> int:
    import secrets

    from mathgames.server.places import notebooks_folder
    from mathgames.server.serve import lab_command

    folder = folder.expanduser().resolve()
    source = notebooks_folder()
    if folder != source.resolve():
        copied = copy_notebooks(source, folder)
        print(f"mathgames: {len(copied)} files copied into {folder}", flush=True)
    token = secrets.token_urlsafe(24)
    print(f"mathgames: JupyterLab on http://127.0.0.1:{port}/lab?token={token}  "
          "(Ctrl+C stops it)", flush=True)
    try:
        return subprocess.call(lab_command(folder, port, token))
    except KeyboardInterrupt:
        return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``mathgames`` with ``argv`` (default: the command line)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "lab":
        return _lab(args.folder, args.port)
    from mathgames.server.serve import run

    return run(args, parser)


if __name__ == "__main__":
    sys.exit(main())
