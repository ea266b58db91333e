"""Fresh installs the tests need, started in the background when the test session starts.

Three tests install the package into a new virtual environment, as a teacher, Binder and a
school's image do. Each install takes about a minute, most of it waiting for pip's
downloads and unpacking, not for the processor. Made inside a test, that minute holds one
of the suite's workers; started when the session starts (:func:`start`, from the root
``conftest.py``, in the main process before the workers begin) it runs beside the other
tests, and the test that needs it waits only for what is left (:func:`wait`).

An install starts only when the session's paths include a test file that uses it, no
``-k`` or ``-m`` narrows the run and it is not ``--collect-only``; otherwise the test makes
it itself, in its own temporary folder, when it asks for it. An install that fails fails the
tests that use it, with pip's own words. The folders are removed when the session ends.

>>> sorted(JOBS)
['binder', 'image', 'teacher']
>>> wanted(JOBS["binder"], [ROOT / "tests"]), wanted(JOBS["binder"], [ROOT / "tests/core"])
(True, False)
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import venv
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: The environment variable that tells the test workers where the installs are made.
WHERE = "MATHGAMES_PREPARED"
#: The image's folders, moved under the install's folder when its commands run here.
IMAGE_FOLDERS = ("/opt/venv", "/app")


def dockerfile() -> list[tuple[str, str]]:
    """The Dockerfile's instructions as (INSTRUCTION, arguments), continuations joined.

    >>> dockerfile()[0][0]
    'FROM'
    """
    text = re.sub(r"\\\n\s*", " ", (ROOT / "Dockerfile").read_text())
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1].strip())
            for line in text.splitlines()
            if line.strip() and not line.lstrip().startswith("#")]


def image_env() -> dict[str, str]:
    """The ENV the Dockerfile sets (``NAME=value`` pairs, quoted as a shell would).

    >>> image_env()["PORT"]
    '8866'
    """
    env: dict[str, str] = {}
    for instruction, args in dockerfile():
        if instruction == "ENV":
            for pair in shlex.split(args):
                name, _, value = pair.partition("=")
                env[name] = value
    return env


def in_folder(text: str, folder: Path) -> str:
    """An image command with the image's folders moved under ``folder``.

    >>> in_folder("/opt/venv/bin/pip install /app/x", Path("/tmp/i"))
    '/tmp/i/venv/bin/pip install /tmp/i/app/x'
    """
    for image_path in IMAGE_FOLDERS:
        text = text.replace(image_path, str(folder / Path(image_path).name))
    return text


def image_process_env(folder: Path) -> dict[str, str]:
    """The environment the image's commands run in here: the Dockerfile's ENV, a home of
    their own, and no virtual environment of the tests on the PATH."""
    env = dict(os.environ, **image_env(), HOME=str(folder / "home"))
    env.pop("VIRTUAL_ENV", None)
    env["PATH"] = os.pathsep.join(p for p in env["PATH"].split(os.pathsep) if ".venv" not in p)
    return env


def install_image(folder: Path) -> None:
    """The Dockerfile's COPY and install RUN instructions, run as written into ``folder``
    (its ``app`` and ``venv`` stand for the image's ``/app`` and ``/opt/venv``)."""
    app = folder / "app"
    app.mkdir(parents=True)
    env = image_process_env(folder)
    for instruction, args in dockerfile():
        if instruction == "COPY":
            *sources, target = args.split()
            for source in sources:  # into a folder ("./"), or to the path named
                destination = (app / target / Path(source).name if target.endswith("/")
                               else app / target)
                destination.parent.mkdir(parents=True, exist_ok=True)
                subprocess.run(["cp", "-r", str(ROOT / source), str(destination)], check=True)
        elif instruction == "RUN" and "useradd" not in args:
            done = subprocess.run(["/bin/sh", "-c", in_folder(args, folder)], cwd=app, env=env,
                                  capture_output=True, text=True)
            if done.returncode:
                raise RuntimeError(f"RUN {args} failed:\n{done.stdout[-3000:]}"
                                   f"{done.stderr[-3000:]}")


def venv_program(venv_folder: Path, name: str) -> Path:
    """A program of a virtual environment (``bin/`` or Windows' ``Scripts\\``).

    >>> venv_program(Path("v"), "python").name in ("python", "python.exe")
    True
    """
    if os.name == "nt":
        return venv_folder / "Scripts" / f"{name}.exe"
    return venv_folder / "bin" / name


def _venv_with(folder: Path, *pip_args: str, cwd: Path, timeout: float) -> None:
    """A new virtual environment in ``folder/venv`` and ``pip install pip_args`` in it,
    without byte-compiling (the server compiles only what it imports: half of an install's
    time saved); a failed install raises with pip's own words."""
    venv.EnvBuilder(with_pip=True).create(folder / "venv")
    done = subprocess.run([str(venv_program(folder / "venv", "python")), "-m", "pip", "install",
                           "--quiet", "--no-compile", *pip_args], cwd=cwd, capture_output=True,
                          text=True, timeout=timeout)
    if done.returncode:
        raise RuntimeError(f"pip install {' '.join(pip_args)} failed:\n{done.stderr[-3000:]}")


def install_teacher(folder: Path) -> None:
    """The wheel built from this checkout, then a new virtual environment in ``folder/venv``
    with the wheel and its ``app`` extra from the package index, as a teacher installs it."""
    dist = folder / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w",
                    str(dist), str(ROOT)], check=True, cwd=folder, timeout=600)
    wheel = next(dist.glob("mathgames-*.whl"))
    with zipfile.ZipFile(wheel) as archive:
        (folder / "wheel-files.txt").write_text("\n".join(archive.namelist()))
    _venv_with(folder, "--find-links", str(dist), "mathgames[app]", cwd=folder, timeout=1200)


def install_binder(folder: Path) -> None:
    """Binder's environment in ``folder/venv``: ``binder/requirements.txt`` installed."""
    _venv_with(folder, "-r", "binder/requirements.txt", cwd=ROOT, timeout=900)


@dataclass(frozen=True)
class Job:
    """An install: the test files that use it, and how to make it in an empty folder."""

    users: tuple[str, ...]
    make: Callable[[Path], None]


JOBS: dict[str, Job] = {
    "teacher": Job(("tests/app/test_package.py",), install_teacher),
    "binder": Job(("tests/app/test_binder_browser.py",), install_binder),
    "image": Job(("tests/classroom/test_school_deploy.py",), install_image),
}

_THREADS: list[threading.Thread] = []


def wanted(job: Job, paths: list[Path]) -> bool:
    """Whether a session over ``paths`` (folders or files) runs a file that uses ``job``."""
    users = [ROOT / user for user in job.users]
    return any(user == path or path in user.parents for user in users for path in paths)


def _run(name: str, folder: Path) -> None:
    try:
        JOBS[name].make(folder)
    except BaseException:  # said to the test that waits, which fails with it
        (folder / "failed.txt").write_text(traceback.format_exc())
    finally:
        (folder / "done").touch()


def start(args: list[str], narrowed: bool) -> None:
    """Start, each in a thread of this (the main) process, the installs that a session over
    ``args`` (its paths, ``file::test`` ids allowed) uses, unless ``narrowed`` (``-k`` or
    ``-m``); tell the workers where, through :data:`WHERE`."""
    paths = [Path(arg.split("::", 1)[0]).resolve() for arg in args]
    names = [name for name, job in JOBS.items() if wanted(job, paths)]
    if narrowed or not names or os.environ.get(WHERE):
        return
    base = Path(tempfile.mkdtemp(prefix="mathgames-prepared-"))
    os.environ[WHERE] = str(base)
    for name in names:
        (base / name).mkdir()
        (base / name / "started").touch()
        thread = threading.Thread(target=_run, args=(name, base / name), daemon=True,
                                  name=f"install {name}")
        thread.start()
        _THREADS.append(thread)


def finish() -> None:
    """Wait for the installs this process started (a test may have ended without them),
    then remove their folders."""
    base = os.environ.get(WHERE)
    for thread in _THREADS:
        thread.join(timeout=1200)
    if base and _THREADS:
        shutil.rmtree(base, ignore_errors=True)
        del os.environ[WHERE]
    _THREADS.clear()


def wait(name: str, own_folder: Callable[[], Path], timeout: float = 1500) -> Path:
    """The folder of install ``name``, once made: the session's (waiting for it) when it
    was started, else made now in ``own_folder()``. Raises with the install's error."""
    base = os.environ.get(WHERE)
    folder = Path(base) / name if base else None
    if folder is None or not (folder / "started").exists():
        folder = own_folder()
        JOBS[name].make(folder)
        return folder
    deadline = time.monotonic() + timeout
    while not (folder / "done").exists():
        if time.monotonic() > deadline:
            raise TimeoutError(f"the {name} install did not end in {timeout:.0f} s")
        time.sleep(0.5)
    failed = folder / "failed.txt"
    if failed.exists():
        raise RuntimeError(f"the {name} install failed:\n{failed.read_text()}")
    return folder
