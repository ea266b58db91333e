"""The best solitaire crossings found by :mod:`mathgames.halma.solver`, stored as data.

The lesson notebook and the widget's puzzle mode replay these at once instead of
searching. ``bench/halma.py`` (and a slow test) re-find them.

- ``star-10``: the 10 pieces of a Chinese-checkers point to the opposite point in
  27 moves, the proven minimum (George I. Bell, 2009).
- ``halma-19`` and ``halma-13``: a Halma camp to the opposite corner of the 16x16
  board. No minimum is published; these are our own records.

>>> len(best_crossing("star")), best_crossing("star")[0]
(27, 'a4-f5')
"""

from __future__ import annotations

__all__ = ["HOW_FOUND", "SOLUTIONS", "best_crossing"]

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
    "halma-13": (
        "c3-d4", "a1-c3-e5", "e5-f6", "c1-c3-e5-g7", "a3-c3-e5", "b1-d3-d5-f5-f7-h7",
        "a2-c4-e4-e6-g6-i8", "a4-c4-e4-e6-g6-g8", "d1-d3-d5-f5-f7-h9-j7", "j7-k8",
        "b3-b1-d3-d5-f5-f7-h9-j7-l9", "f6-h8-j8-l8-l10", "d4-f6-h8-j8-l8", "b2-c3",
        "d2-b2-d4-f6-h8-j8", "g7-i7-k9-m11", "b4-d2-b2-d4-f6", "e5-g7-i7-k9-m9", "l9-l11-n11",
        "h7-j9-j7-l9-l11", "k8-m8-m10-o12", "i8-k8-m8-m10-m12", "m11-o11-o13",
        "l8-n10-n12-p12-n14", "m9-k11-m11-m13-o15", "n11-p13-n13-n15-p15", "l10-l12-n12-p14-p16",
        "l11-n13-n15", "c3-d3", "c2-e4", "d3-f5-f7-h9", "e4-e5", "e5-g7-g9-i9", "j8-h10-h8-j10",
        "g8-i10-k10", "h9-j9-l11", "i9-k11-m11-m13", "j10-l10-l12-n12-p14", "m12-m14-o16",
        "k10-m12", "l11-n13-p13", "m12-m14-o14-m16", "f6-g7", "g7-h8", "h8-i9", "i9-j10",
        "j10-k11", "k11-l12", "n14-m15", "l12-n14-n16", "m13-n14", "o12-o14",
    ),
}

#: board-pieces -> the solver settings that found it: (beam width, lateral weight).
HOW_FOUND: dict[str, tuple[int, float]] = {
    "star-10": (4000, -0.3),
    "halma-13": (500, 0),
}


def best_crossing(board: str = "star", pieces: int | None = None) -> tuple[str, ...]:
    """The moves of the best stored crossing for ``board`` (Halma: 19 or 13 pieces)."""
    if pieces is None:
        pieces = 10 if board == "star" else 19
    key = f"{board}-{pieces}"
    if key not in SOLUTIONS:
        raise KeyError(f"no stored crossing for {key!r}")
    return SOLUTIONS[key]
