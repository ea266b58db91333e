"""Triomino (triangular dominoes): tiles, the triangular table, rule presets, bots.

The rules core knows nothing about Jupyter; :mod:`mathgames.triomino.widget`
holds :class:`~mathgames.triomino.widget.TriominoApp`.

>>> from mathgames.triomino import Game, PRESETS, all_tiles
>>> len(all_tiles()), sorted(PRESETS)[:2]
(56, ['family', 'goliath'])
"""

from __future__ import annotations

from mathgames.triomino.game import Action, Game
from mathgames.triomino.geometry import (
    cell_corners,
    cell_id,
    cell_xy,
    cells_around,
    corner_names,
    edge_neighbours,
    is_up,
    parse_cell,
    point_xy,
)
from mathgames.triomino.rules import PRESETS, RuleSet
from mathgames.triomino.sheet import ScoreEntry
from mathgames.triomino.table import ORIGIN, Bonus, Placement, Table
from mathgames.triomino.tiles import Tile, all_tiles, highest_tile

__all__ = [
    "ORIGIN",
    "PRESETS",
    "Action",
    "Bonus",
    "Game",
    "Placement",
    "RuleSet",
    "ScoreEntry",
    "Table",
    "Tile",
    "all_tiles",
    "cell_corners",
    "cell_id",
    "cell_xy",
    "cells_around",
    "corner_names",
    "edge_neighbours",
    "highest_tile",
    "is_up",
    "parse_cell",
    "point_xy",
]
