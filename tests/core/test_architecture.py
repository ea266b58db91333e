"""The layers stay apart: rules cores never import Jupyter."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "mathgames"
JUPYTER = {"ipywidgets", "anywidget", "traitlets", "IPython", "ipykernel", "bqplot"}
HEAVY = {"numpy", "sympy", "bqplot", "scipy", "pandas"}
# Modules that may import a heavy library inside a function (at first use), never when they
# are imported: the fast Halma engine loads numba and numpy only to compile its kernel
# (tests/halma/test_halma_fastplay.py checks that importing it loads neither), and the
# Matematiko expert's imagined games load them at the expert's first number
# (tests/matematiko/test_matematiko_rollouts.py checks that the other levels load neither).
LAZY_HEAVY = {"halma/fastplay.py", "matematiko/rollouts.py"}
# The Jupyter side: widgets (widget*.py, *_widget.py), the app's pages, the shared board
# widget, and the app's server (a Voila application).
JUPYTER_SIDE = {"core/board_widget.py", "core/resume_widget.py", "core/demo_widget.py",
                "core/ui_widget.py",
                # the static site's kernel stand-in runs IPython; the site's build presses a
                # game page's buttons (in Pyodide's Python) to compile what the page imports
                "site/browser.py", "site/precompile.py"}


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    roots = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def imported_at_load(path: Path) -> set[str]:
    """The roots of the imports a module runs when it is imported (not in its functions)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    roots: set[str] = set()
    todo: list[ast.AST] = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            continue
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
        todo.extend(ast.iter_child_nodes(node))
    return roots


def modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def is_jupyter_side(path: Path) -> bool:
    relative = path.relative_to(PACKAGE).as_posix()
    return (relative in JUPYTER_SIDE or path.name.startswith("widget")
            # the app's pages, its lessons' kit and its server
            or relative.startswith(("pages/", "lessons/", "server/"))
            or path.name.endswith("_widget.py"))


@pytest.mark.parametrize(
    "path", [p for p in modules() if not is_jupyter_side(p)],
    ids=lambda p: p.relative_to(PACKAGE).as_posix(),
)
def test_rules_cores_import_no_jupyter(path: Path) -> None:
    found = imported_roots(path) & JUPYTER
    assert not found, f"{path.relative_to(PACKAGE)} imports {sorted(found)}"


@pytest.mark.parametrize(
    "path", [p for p in modules()
             if p.parent.name not in {"pages", "server", "lessons"} and "explore" not in p.parts],
    ids=lambda p: p.relative_to(PACKAGE).as_posix(),
)
def test_game_pages_stay_light(path: Path) -> None:
    """Games and their widgets import no numpy, sympy or bqplot (30 kernels on one server)."""
    lazy = path.relative_to(PACKAGE).as_posix() in LAZY_HEAVY
    found = (imported_at_load(path) if lazy else imported_roots(path)) & HEAVY
    assert not found, f"{path.relative_to(PACKAGE)} imports {sorted(found)}"


def test_the_check_itself_sees_imports(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("import os\nfrom ipywidgets import Button\nimport traitlets.config\n")
    assert imported_roots(sample) == {"os", "ipywidgets", "traitlets"}
    sample.write_text("import os\ntry:\n    import json\nexcept ImportError:\n    pass\n"
                      "class A:\n    import re\n    def f(self):\n        import numpy\n")
    assert imported_at_load(sample) == {"os", "json", "re"}
