"""Halma and Chinese checkers (Trylma, Sternhalma): one engine over two boards.

The public API, module by module:

- :mod:`~mathgames.halma.topology`: the boards as data: :data:`HALMA` (16x16,
  8 directions) and :data:`STAR` (121 holes, 6 directions); cell names,
  positions, neighbour and jump tables, camps, step distances.
- :mod:`~mathgames.halma.game`: :class:`Game` (legal moves, checked and
  unchecked moves, undo, the end of the game, position text), :class:`Move`,
  the fill rule's choices :data:`FILL_RULES` (bounded by default, literal, swap).
- :mod:`~mathgames.halma.bots`: :class:`GreedyBot`, :class:`SearchBot`.
- :mod:`~mathgames.halma.solver`: the solitaire crossing (beam search) and a
  parity lower bound; :mod:`~mathgames.halma.solutions`: the best crossings found.
- :mod:`~mathgames.halma.view`: ``render(game) -> SVG``;
  :mod:`~mathgames.halma.widget`: ``HalmaApp(board="halma" | "star")``.

>>> from mathgames.halma import HALMA, STAR, Game, best_crossing
>>> HALMA.size, STAR.size, len(best_crossing("star"))
(256, 121, 27)
"""

from __future__ import annotations

from mathgames.halma.game import DEFAULT_FILL_RULE, FILL_RULES, PASS, Game, Move, Result
from mathgames.halma.solutions import SOLUTIONS, best_crossing
from mathgames.halma.topology import BOARDS, HALMA, STAR, Topology, get_topology

__all__ = ["BOARDS", "DEFAULT_FILL_RULE", "FILL_RULES", "HALMA", "PASS", "SOLUTIONS", "STAR",
           "Game", "Move", "Result", "Topology", "best_crossing", "get_topology"]
