"""Triomino's keyboard, as pure functions: the frame that goes from free place to free place.

The Triomino widget (:mod:`mathgames.triomino.widget`) and a classroom table
(:mod:`mathgames.classroom.games`) move their keyboard frame with these functions, so a
key does the same thing in both: an arrow goes to the nearest free place in its
direction on screen, ``n`` to the next free place in order, and the frame starts at the
free place nearest the last tile (the middle of an empty table).

>>> from mathgames.triomino.game import Game
>>> game = Game("pressman", 2, seed=1)
>>> places = free_places(game, game.current)
>>> places == [(0, 0)]  # an empty table: the middle
True
>>> step_cursor(game, places, None, "ArrowRight"), place_said(game, places, (0, 0))
((0, 0), 'Free place 1 of 1')
"""

from __future__ import annotations

from mathgames.core.i18n import translator
from mathgames.triomino.game import Game
from mathgames.triomino.geometry import Cell, cell_towards, nearest_cell
from mathgames.triomino.tiles import Tile

__all__ = ["ARROWS", "cursor_start", "free_places", "place_said", "step_cursor"]

_ = translator("triomino")

#: Arrow keys on the table: the direction on screen (y grows downwards).
ARROWS = {"ArrowUp": (0, -1), "ArrowDown": (0, 1), "ArrowLeft": (-1, 0), "ArrowRight": (1, 0)}


def free_places(game: Game, player: int) -> list[Cell]:
    """The places the frame may stand on while ``player`` is to place a tile: the free
    cells next to the tiles, in order (the middle when the table is empty); none when it
    is not ``player``'s turn to place."""
    if game.phase != "play" or game.current != player:
        return []
    return sorted(game.table.frontier())


def cursor_start(game: Game, places: list[Cell]) -> Cell:
    """Where the frame starts among ``places`` (not empty): the free place nearest the
    last tile, or the first one on an empty table."""
    if not game.table.order:
        return places[0]
    return nearest_cell(places, game.table.order[-1].cell)


def step_cursor(game: Game, places: list[Cell], cursor: Cell | None, key: str | None
                ) -> Cell | None:
    """The frame after ``key``: an arrow (:data:`ARROWS`) goes to the nearest place in
    its direction (the frame stays when there is none), ``n`` or ``N`` to the next place
    in order, ``None`` to the start (:func:`cursor_start`); a frame that is not on one of
    ``places`` starts again. ``None`` when there is no place."""
    if not places:
        return None
    if cursor not in places or key is None:
        return cursor_start(game, places)
    if key in ("n", "N"):
        return places[(places.index(cursor) + 1) % len(places)]
    return cell_towards(places, cursor, ARROWS[key])


def place_said(game: Game, places: list[Cell], cursor: Cell, tile: Tile | None = None,
               rotation: int = 0) -> str:
    """What a screen reader hears when the frame stands on ``cursor``: which free place
    it is, and whether the chosen ``tile`` turned ``rotation`` times fits there."""
    fits = ""
    if tile is not None:
        turns = [p.rotation for p in game.legal_placements(tile) if p.cell == cursor]
        fits = (_("the tile fits here") if rotation in turns
                else _("the tile fits here turned another way") if turns
                else _("the tile does not fit here"))
    place = _("Free place {n} of {total}").format(n=places.index(cursor) + 1,
                                                 total=len(places))
    return f"{place}. {fits}".strip(" .")
