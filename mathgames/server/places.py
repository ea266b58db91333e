"""Where the app's files are: its notebooks (a checkout's, else the installed package's)
and the folder it keeps its data in (each system's own place for an app's data).

The notebooks ship inside the wheel as ``mathgames/notebooks`` (pyproject.toml's
``force-include``); in a checkout of the repository the ``notebooks/`` folder beside
the package wins, so that developers serve what they edit.

>>> (notebooks_folder() / "index.ipynb").exists()
True
>>> data_folder({"MATHGAMES_DATA_DIR": "/srv/mathgames"}) == Path("/srv/mathgames")
True
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

__all__ = ["DATA_VARIABLE", "PACKAGE", "checkout_notebooks", "data_folder", "notebooks_folder",
           "packaged_notebooks"]

#: The package's own folder (``.../site-packages/mathgames`` once installed).
PACKAGE = Path(__file__).resolve().parent.parent
#: The environment variable that names the data folder (the classroom's SQLite store).
DATA_VARIABLE = "MATHGAMES_DATA_DIR"


def checkout_notebooks(package: Path = PACKAGE) -> Path | None:
    """The ``notebooks/`` folder of the repository the package runs from, or ``None``
    when the package is installed (no ``pyproject.toml`` and ``notebooks/`` beside it).

    >>> checkout_notebooks(Path("/nowhere/site-packages/mathgames")) is None
    True
    """
    top = package.parent
    notebooks = top / "notebooks"
    if (top / "pyproject.toml").is_file() and (notebooks / "index.ipynb").is_file():
        return notebooks
    return None


def packaged_notebooks(package: Path = PACKAGE) -> Path:
    """The notebooks installed with the package (``mathgames/notebooks`` in the wheel).

    >>> packaged_notebooks(Path("/venv/site-packages/mathgames")).as_posix()
    '/venv/site-packages/mathgames/notebooks'
    """
    return package / "notebooks"


def notebooks_folder(package: Path = PACKAGE) -> Path:
    """The app's notebooks: a checkout's ``notebooks/`` when run from the repository,
    else the ones installed with the package."""
    return checkout_notebooks(package) or packaged_notebooks(package)


def data_folder(environ: Mapping[str, str] | None = None) -> Path:
    """The folder of the app's data: ``$MATHGAMES_DATA_DIR``, else ``mathgames`` in
    Jupyter's data folder, which is each system's place for it (``JUPYTER_DATA_DIR``,
    else ``~/.local/share/jupyter`` or ``$XDG_DATA_HOME/jupyter`` on Linux,
    ``~/Library/Jupyter`` on macOS, ``%APPDATA%\\jupyter`` on Windows).

    >>> data_folder({}).name
    'mathgames'
    """
    environ = os.environ if environ is None else environ
    if environ.get(DATA_VARIABLE):
        return Path(environ[DATA_VARIABLE])
    from jupyter_core.paths import jupyter_data_dir

    return Path(jupyter_data_dir()) / "mathgames"
