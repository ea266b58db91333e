"""A long paste, a forged value or a damaged file is quoted short in every refusal.

Each door below is given a value thousands of characters long where it expects a few;
the refusal must still say what it refused (the value's start) and where, without
writing the whole value into a message a student reads on a phone or a log keeps.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from mathgames.classroom.store import SqliteStore
from mathgames.core.errors import MathgamesError, quoted
from mathgames.core.i18n import set_language
from mathgames.halma.game import Game as HalmaGame
from mathgames.halma.game import Move
from mathgames.matematiko import deck, match, odds, rules
from mathgames.triomino import geometry, mosaic, table
from mathgames.triomino.tiles import Tile

LONG = "q7" * 2500
START = LONG[:16]
POSITION = HalmaGame("halma", 2).position_text()

DOORS: dict[str, Callable[[], object]] = {
    "a typed Halma move": lambda: Move.parse(LONG),
    "a Halma move's second cell": lambda: Move.parse("a1-" + LONG),
    "a Halma cell name": lambda: HalmaGame("halma", 2).topology.index(LONG),
    "a line of a Halma position": lambda: HalmaGame.from_position_text(LONG),
    "a Halma position's field name": lambda: HalmaGame.from_position_text(
        POSITION + f"\n{LONG}: 1\n{LONG}: 2"),
    "a Halma position's number": lambda: HalmaGame.from_position_text(
        POSITION.replace("players: 2", "players: " + LONG)),
    "a Halma position's finisher": lambda: HalmaGame.from_position_text(
        POSITION.replace("finished: none", "finished: " + LONG)),
    "a Halma position's unknown field": lambda: HalmaGame.from_position_text(
        POSITION + f"\n{LONG}: 3"),
    "a Halma position's cell": lambda: HalmaGame.from_position_text(
        POSITION.replace("player 0: ", f"player 0: {LONG} ")),
    "a typed tile": lambda: Tile.parse(LONG),
    "a tile's corners": lambda: Tile(0, 1, LONG),  # type: ignore[arg-type]
    "a Triomino cell id": lambda: geometry.parse_cell(LONG),
    "a Triomino placement": lambda: table.Placement.from_list([LONG, 0, 0, 0, 0]),
    "a mosaic's colour": lambda: mosaic.Mosaic().place((0, 0), LONG),
    "a mosaic's cell": lambda: mosaic.Mosaic().place((LONG, 0), 1),
    "a Matematiko game code": lambda: deck.normalize_code(LONG),
    "a Matematiko player's name": lambda: match.Match([LONG]),
    "a Matematiko cell": lambda: match.cell_index(LONG),
    "a Matematiko player asked for": lambda: match.Match(["Ann"]).player(LONG),
    "a Matematiko card": lambda: rules.score_line([LONG, 1, 2, 3, 4]),
    "a called card": lambda: odds.unseen_counts([LONG]),
    "a class code": lambda: SqliteStore(":memory:").session(LONG),
    "a language": lambda: set_language(LONG),
}


@pytest.mark.parametrize("door", DOORS)
def test_a_long_value_is_quoted_short(door: str) -> None:
    with pytest.raises((MathgamesError, ValueError)) as info:
        DOORS[door]()
    message = str(info.value)
    assert START in message, message
    assert len(message) < 160, message
    assert "…" in message


def test_a_list_is_quoted_by_its_first_items_and_a_deep_one_by_its_first_levels() -> None:
    deep: list = []
    for _ in range(5000):
        deep = [deep]
    assert quoted(deep) == "[[[[...]]]]"
    assert quoted(list(range(10 ** 6))) == "[0, 1, 2, 3, 4, 5, ...]"
    said = quoted({"type": LONG})
    assert said.startswith("{'type': 'q7q7") and said.endswith("…") and len(said) == 40
