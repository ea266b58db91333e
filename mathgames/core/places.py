"""Where the app keeps its data (the classroom's SQLite store): each system's own place.

>>> data_folder({"MATHGAMES_DATA_DIR": "/srv/mathgames"}) == Path("/srv/mathgames")
True
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

__all__ = ["DATA_VARIABLE", "data_folder"]

#: The environment variable that names the data folder (the server passes it to its kernels).
DATA_VARIABLE = "MATHGAMES_DATA_DIR"


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
    try:
        from jupyter_core.paths import jupyter_data_dir
    except ImportError:  # the games alone, without Jupyter's server: Jupyter's Linux place
        base = environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
        return Path(base) / "jupyter" / "mathgames"
    return Path(jupyter_data_dir()) / "mathgames"
