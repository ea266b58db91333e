"""The site's modules compiled ahead: what a game's page imports, as bytecode.

Python compiles a module's source when it first imports it. In the browser that work is lost
with the page (Pyodide writes no ``__pycache__``, and its file system lives in the page), so
every visit to a game's page compiled IPython, traitlets, ipywidgets and the game again. The
site's build (``site-src/precompile.mjs``) runs :func:`precompile` in Pyodide's own Python
(the same 3.12, under Node) on the unpacked wheels: it runs each game page's cells as the page
does, presses "Start", and writes every module imported from the wheels, compiled,
into one zip that the pages unpack over the wheels. The ``.pyc`` files are unchecked-hash ones:
Python uses them without comparing them with the source, whose file times the unpacking does
not keep; the source stays beside them for tracebacks.

>>> import io, pathlib, tempfile
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "sample.py").write_text("ANSWER = 42\\n")
>>> archive = io.BytesIO()
>>> [name.split("/")[0] for name in compile_into([str(folder / "sample.py")], str(folder),
...                                               archive)]
['__pycache__']
>>> with zipfile.ZipFile(archive) as done:
...     code = done.read(f"__pycache__/sample.{sys.implementation.cache_tag}.pyc")
>>> code[:4] == importlib.util.MAGIC_NUMBER, int.from_bytes(code[4:8], "little")
(True, 1)
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import py_compile
import sys
import tempfile
import zipfile
from collections.abc import Iterable, Sequence
from typing import IO

__all__ = ["compile_into", "imported_sources", "precompile"]

#: The buttons a page's visitor presses first: "Start" on the games with a set-up panel (which
#: imports the game's bots).
FIRST_PRESSED = "mg-start"


def imported_sources(root: str) -> list[str]:
    """The source files under ``root`` of every module imported so far, sorted.

    >>> import json
    >>> json.__file__ in imported_sources(os.path.dirname(json.__file__))
    True
    """
    top = os.path.abspath(root) + os.sep
    found = {os.path.abspath(module.__file__) for module in list(sys.modules.values())
             if isinstance(getattr(module, "__file__", None), str)}
    return sorted(path for path in found if path.startswith(top) and path.endswith(".py"))


def compile_into(sources: Iterable[str], root: str, into: IO[bytes]) -> list[str]:
    """Write each source's unchecked-hash ``.pyc`` into the zip ``into``, at the place Python
    looks for it (``__pycache__``), relative to ``root``; the names written."""
    names = []
    with tempfile.TemporaryDirectory() as scratch, \
            zipfile.ZipFile(into, "w", zipfile.ZIP_DEFLATED) as archive:
        for source in sources:
            cached = importlib.util.cache_from_source(source)
            name = os.path.relpath(cached, root).replace(os.sep, "/")
            target = os.path.join(scratch, name)
            py_compile.compile(source, cfile=target, doraise=True,
                               invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
            archive.write(target, name)
            names.append(name)
    return names


def _press_first_buttons() -> None:
    """Press every button of :data:`FIRST_PRESSED` on the page, as its visitor would."""
    from ipywidgets import Button
    from ipywidgets.widgets.widget import _instances

    for widget in list(_instances.values()):
        if isinstance(widget, Button) and FIRST_PRESSED in widget._dom_classes:
            widget.click()


def precompile(pages: Sequence[Sequence[str]], into: str, root: str = ".") -> int:
    """Run each page's code cells as the page does and press its "Start", then write every
    module imported from ``root`` (where the wheels are unpacked), compiled, into the zip
    ``into``; how many modules it holds."""
    from mathgames.site.browser import start

    shown: list[str] = []
    runtime = start(lambda kind, payload, buffers: shown.append(payload))
    try:
        for cells in pages:
            for code in cells:
                if not runtime.run(code):
                    raise RuntimeError(f"a page's cell failed while precompiling:\n{code}\n"
                                       + json.loads(shown[-1])["data"]["text/plain"])
            _press_first_buttons()
    finally:
        runtime.stop()
    # this module is the build's, not the pages'
    sources = [path for path in imported_sources(root) if path != os.path.abspath(__file__)]
    with open(into, "wb") as file:
        return len(compile_into(sources, root, file))
