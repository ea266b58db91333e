"""Matematiko: 25 called numbers, a 5x5 grid, and poker-like lines.

Rules core (no Jupyter): :mod:`~mathgames.matematiko.rules` (scoring),
:mod:`~mathgames.matematiko.deck` (game codes and the shuffle),
:mod:`~mathgames.matematiko.match` (a game for a class), :mod:`~mathgames.matematiko.odds`
(exact odds) and :mod:`~mathgames.matematiko.bots`. The widget is
:class:`mathgames.matematiko.widget.MatematikoApp`.

>>> from mathgames import matematiko
>>> matematiko.score_line([5, 6, 7, 8, 9]).points
50
>>> matematiko.score_grid([[1, 1, 1, 1, 2]] * 3 + [[3, 4, 5, 6, 7]] * 2).total
Traceback (most recent call last):
...
mathgames.core.errors.InvalidMoveError: grid: 12 cards 1, the deck has only 4
"""

from __future__ import annotations

from mathgames.matematiko import odds
from mathgames.matematiko.deck import GameCodeError, deal_for_code, new_code, normalize_code
from mathgames.matematiko.match import Match, Player, Standing, cell_index, cell_name
from mathgames.matematiko.rules import (
    COMBINATIONS,
    Combination,
    GridScore,
    LineScore,
    combination_table,
    score_grid,
    score_line,
)

__all__ = [
    "COMBINATIONS",
    "Combination",
    "GameCodeError",
    "GridScore",
    "LineScore",
    "Match",
    "Player",
    "Standing",
    "cell_index",
    "cell_name",
    "combination_table",
    "deal_for_code",
    "new_code",
    "normalize_code",
    "odds",
    "score_grid",
    "score_line",
]
