"""The best solitaire crossings found by :mod:`mathgames.halma.solver`, stored as data.

The lesson notebook and the widget's puzzle mode replay these at once instead of
searching. ``bench/halma.py`` (and a slow test) re-find them.

- ``star-10``: the 10 pieces of a Chinese-checkers point to the opposite point in
  27 moves, the proven minimum (George I. Bell, 2009).
- ``halma-19`` and ``halma-13``: a Halma camp to the opposite corner of the 16x16
  board. No minimum is published; these are our own records. ``halma-19``: 46 moves,
  found in issue 17 by :func:`~mathgames.halma.solver.meet_crossing` (``HOW_MET``):
  after 23 moves the position is its own image on the board turned half round and
  reflected in its diagonal, so the last 23 moves are the first 23 played backwards on
  that image (two of them in the other order). The same search 2,000-3,000 wide found
  46 again with eight other seeds and weights (``symmetry`` 8-24), and so did searches
  3,000-4,000 wide continued after moves 6, 10 and 14 of it; 1,000 wide, other seeds
  and weights gave 46-55; no window of 5 moves or fewer of it has a shorter way round.
  For 13 pieces it gave 42-44 (1,000-3,000 wide). The earlier record, 48 moves, came from
  :func:`~mathgames.halma.solver.solve_crossing`, and neither shortening windows of up
  to 6 moves nor beams 8,000-12,000 wide (fresh, or continued after moves 12 and 20)
  improved it. ``halma-13``: 42 moves, found in issue 17 with a wider beam and less
  lateral pull (the earlier record was 43); no window of 5 moves or fewer has a
  shorter way round (:func:`~mathgames.halma.solver.shorten_crossing`).
  The lower bounds are 28 and 23 moves (:func:`~mathgames.halma.solver.advance_lower_bound`).

>>> len(best_crossing("star")), best_crossing("star")[0]
(27, 'a4-f5')
"""

from __future__ import annotations

__all__ = ["HOW_FOUND", "HOW_MET", "SOLUTIONS", "best_crossing"]

#: board-pieces -> the moves of the best crossing found, as move texts.
SOLUTIONS: dict[str, tuple[str, ...]] = {
    "star-10": (
        "a4-f5", "a2-a4-f6", "c3-g5-e7", "e7-d8", "a1-c3-g5-e7-c9", "a3-g5-e7", "b4-e6-e8-c8-d10",
        "d10-e11", "b2-b4-e6-e8-c8-d10-f12", "d4-b4-e6-e8-c8-d10", "f5-g5",
        "b3-h5-f5-f7-d7-d9-d11-f11-f13", "d8-c10-e10-e12-b14", "b14-b15",
        "f6-d8-c10-e10-e12-b14-b16", "c4-f6-d8-c10-e10-e12-b14", "g5-f6", "b14-c14",
        "f6-d8-c10-e10-e12-b14-d14", "e7-d8", "d8-c10-e10-e12-b14", "e11-g13-c15-a17",
        "c9-e11-g13-a15", "d10-e11", "e11-g13-c15", "f12-a14-a16", "f13-a14",
    ),
    "halma-19": (
        "c2-e4", "d3-f5", "f5-g6", "b3-d3-f5-h7", "h7-i8", "b1-b3-d3-f5-h7-j9", "d1-d3-f5-h7",
        "b5-d3-f5", "c1-e3-e5-g5-g7-i7-i9-k9", "k9-k10", "a3-c1-e3-e5-g5-g7-i7-i9-k9-k11",
        "k11-l11", "a1-a3-c1-e3-e5-g5-g7-i7-i9-k9-k11-m11", "m11-m12",
        "b4-d4-f4-f6-h6-h8-j8-j10-l10-l12-n12", "a5-a3-c1-e3-e5-g5-g7-i7-i9-k9-k11-m11-o13",
        "n12-o12", "b2-d4-f4-f6-h6-h8-j8-j10-l10-l12-n12-p12-n14",
        "e1-e3-e5-g5-g7-i7-i9-k9-k11-m11-m13-o15", "c4-d4",
        "d4-f4-f6-h6-h8-j8-j10-l10-l12-n12-p14-n16", "a2-b2", "a4-a3", "o15-o16", "n16-m16",
        "a3-c1-e3-e5-g5-g7-i7-i9-k9-k11-m11-m13", "m13-m14",
        "b2-d4-f4-f6-h6-h8-j8-j10-l10-l12-n12-p12", "c3-e1-e3-e5-g5-g7-i7-i9-k9-k11-m11-m13-o15",
        "e2-e3", "d2-f4-f6-h6-h8-j8-j10-l10-l12-n12-p14-n16-l16",
        "e3-e5-g5-g7-i7-i9-k9-k11-m11-m13-m15", "e4-f4",
        "f4-f6-h6-h8-j8-j10-l10-l12-n12-p14-n16-p16", "f5-f6",
        "f6-h6-h8-j8-j10-l10-l12-n12-p14-n16", "g6-h6", "h6-h8-j8-j10-l10-l12-n12-p14",
        "l11-n13-l15", "j9-l11-n13-p13", "h7-j9-l11-n13-n15-p15", "i8-j9", "j9-l11-n13-n15",
        "k10-l11", "l11-n13", "m12-o14",
    ),
    "halma-13": (
        "c1-e3", "e3-e4", "a1-c1-e3-e5", "b1-d3-f5-d5", "b2-d4-f6", "a2-c4-e6-g6", "d1-d3-f5-f7",
        "a4-c4-e6-g8", "b3-d3-f5-h7-f9", "e5-g7-g9", "a3-c5-e5-g7-e7", "d2-b2-d4-d6-f8-h8",
        "b4-d2-b2-d4-d6-f8-h10", "c2-c4-e6-e8-g10-i10", "c3-d3", "d3-f5-h7-h9-h11", "e4-e5",
        "d5-f5-h7-h9-j11", "e5-g7-i9-i11-k11", "e7-g7-i9", "h8-j10-j12", "f6-f8-h8-j10-l12",
        "g6-e8-g10-i12-k10", "f7-h9-j9-l11-l13", "g8-g10-i12-k12-m12", "f9-h9-j9-l11-n13",
        "g9-i11-k13-m13-o13", "l12-n12-n14", "i9-i11-k13-m13-o15", "h10-j10-l12-n12-p14-n16",
        "n13-o14", "h11-j9-l11-n13-n15", "i10-k12-m14-o16-m16", "j11-l11-n13-p15",
        "j12-l10-j10-l12-n12-p14-p16", "k10-k12-m14-o16", "k11-l12", "l13-l11-n13-p13",
        "l12-n12-p14", "m12-n13", "n13-m14", "m14-m15"
    ),
}

#: board-pieces -> the :func:`~mathgames.halma.solver.solve_crossing` settings that found
#: it: (width, lateral, compact).
HOW_FOUND: dict[str, tuple[int, float, float]] = {
    "star-10": (4000, -0.3, 0.0),
    "halma-13": (3000, 0.2, 1.5),
}

#: board-pieces -> the :func:`~mathgames.halma.solver.meet_crossing` settings that found
#: it (keyword arguments).
HOW_MET: dict[str, dict[str, float]] = {
    "halma-19": {"width": 1000, "symmetry": 16.0, "seed": 2, "max_moves": 27},
}


def best_crossing(board: str = "star", pieces: int | None = None) -> tuple[str, ...]:
    """The moves of the best stored crossing for ``board`` (Halma: 19 or 13 pieces)."""
    if pieces is None:
        pieces = 10 if board == "star" else 19
    key = f"{board}-{pieces}"
    if key not in SOLUTIONS:
        raise KeyError(f"no stored crossing for {key!r}")
    return SOLUTIONS[key]
