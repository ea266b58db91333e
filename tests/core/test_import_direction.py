"""The rooms import in one direction: core, then the games, then the classroom, then the
pages, the lessons, the server and the static site; the site never imports the server.

Every import counts, at the top of a module or inside a function (a late import is still a
dependency). The check reads the source with :mod:`ast`, so it costs no import.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "mathgames"
GAMES = {"triomino", "matematiko", "halma"}

#: What each room may import besides itself (a room is a subpackage, or a top-level module).
ALLOWED: dict[str, set[str]] = {
    "__init__": set(),
    "core": set(),
    **{game: {"core"} for game in GAMES},
    "classroom": {"core", *GAMES},
    "page_list": {"core"},
    "lessons": {"core", *GAMES, "page_list", "pages"},
    "site": {"core", *GAMES, "page_list"},
    "pages": {"core", *GAMES, "classroom", "page_list", "site"},
    "server": {"core", "page_list", "pages"},
    "cli": {"core", "server"},
}


def room_of(path: Path) -> str:
    parts = path.relative_to(PACKAGE).parts
    return parts[0] if len(parts) > 1 else parts[0].removesuffix(".py")


def imported_rooms(path: Path) -> dict[str, int]:
    """The rooms of ``mathgames`` that a module imports, with the first line of each."""
    found: dict[str, int] = {}
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
            if node.module == "mathgames":  # from mathgames import halma
                names = [f"mathgames.{alias.name}" for alias in node.names]
        for name in names:
            parts = name.split(".")
            if parts[0] == "mathgames" and len(parts) > 1:
                found.setdefault(parts[1], node.lineno)
    return found


MODULES = sorted(PACKAGE.rglob("*.py"))


def test_every_room_has_a_rule() -> None:
    rooms = {room_of(path) for path in MODULES}
    assert rooms <= set(ALLOWED), f"rooms without a rule: {sorted(rooms - set(ALLOWED))}"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(PACKAGE).as_posix())
def test_imports_go_one_way(path: Path) -> None:
    room = room_of(path)
    wrong = {other: line for other, line in imported_rooms(path).items()
             if other != room and other not in ALLOWED.get(room, set())}
    assert not wrong, (f"{path.relative_to(PACKAGE)} ({room}) imports "
                       + ", ".join(f"{other} (line {line})" for other, line in wrong.items()))


def test_the_rules_have_no_circle() -> None:
    """The allowed imports themselves form no circle, so no two rooms can lean on each other."""
    seen: dict[str, str] = {}

    def visit(room: str, path: tuple[str, ...]) -> None:
        if seen.get(room) == "done":
            return
        assert seen.get(room) != "open", f"a circle: {' -> '.join((*path, room))}"
        seen[room] = "open"
        for other in ALLOWED.get(room, set()):
            visit(other, (*path, room))
        seen[room] = "done"

    for room in ALLOWED:
        visit(room, ())


def test_the_check_sees_late_imports(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("import os\nfrom mathgames.core import svg\n"
                      "def f():\n    from mathgames.server.app import AppVoila\n"
                      "from mathgames import halma\n")
    assert imported_rooms(sample) == {"core": 2, "server": 4, "halma": 5}
