"""Where the app's notebooks are: a checkout's, else the installed package's (the data
folder is :func:`mathgames.core.places.data_folder`).

The notebooks ship inside the wheel as ``mathgames/notebooks`` (pyproject.toml's
``force-include``); in a checkout of the repository the ``notebooks/`` folder beside
the package wins, so that developers serve what they edit.

>>> (notebooks_folder() / "index.ipynb").exists()
True
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["PACKAGE", "checkout_notebooks", "notebooks_folder", "packaged_notebooks"]

#: The package's own folder (``.../site-packages/mathgames`` once installed).
PACKAGE = Path(__file__).resolve().parent.parent


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


