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
    "halma-19": (
        "c2-e4", "c3-e3-e5", "b4-d4-f4-d6", "a1-c3-c5-e7", "d1-f3-d5-d7-f7", "a4-c6-e6-g8",
        "a2-a4-c6-e6-e8-g6", "b1-d1-f3-d5-f5-h7-f9", "e2-c2-a4-c6-e6-e8-g10",
        "b2-b4-d4-f6-f8-f10-h10", "e7-g7-g9-i11", "c1-e3-c3-c5-e7-g7-g9-g11-i9",
        "d2-d4-f6-f8-h8-j10-h12", "a3-c3-c5-e7-g7-g9-g11-i13", "a5-c5-e7-g7-g9",
        "d6-f4-d4-f6-f8-h8", "d3-f5-h7-h9-h11-h13-j13", "b5-d3-f5-h7-h9-h11-j11",
        "g8-i8-i10-i12-k14", "e4-e6-g8-i8-i10-k12-i14", "b3-d5-f5-h7-h9-h11-h13-j15-l13",
        "i13-k13-m13", "h8-j10-j12-j14-l14-l12-n14", "g10-i10-k12-m14-o14",
        "g6-e8-g10-i10-k12-m14", "l13-n13-p15", "f9-h9-h11-h13-j15-l13-n13-l15",
        "i9-g11-i13-k13-k15-m15-o13", "h10-j12-j14-l14-n12-p14-p16",
        "h12-j10-j12-j14-l14-n12-p14", "c4-d4", "d4-f6-f8-h10-j12-j14-l14-l16", "e5-f6",
        "n14-n15", "f6-f8-h10-j12-j14-l14-n14-n16", "f7-f8", "f8-h10-j12-j14-l14-n14-p12",
        "g9-h10", "h10-j12-j14-l14-n14", "i14-k12", "i11-k11-k13-k15-m15-o15", "j11-l13-n13-p13",
        "k14-m16-o16", "j13-k13", "k12-k14-m16", "e1-f2", "f2-g3", "g3-h4", "h4-i5", "i5-j6",
        "j6-k7", "k7-l8", "l8-m9", "k13-l14", "l14-m15", "m9-n10", "n10-o11", "o11-o12",
        "m13-n13",
    ),
    "halma-13": (
        "c3-d4", "a1-c3-e5", "e5-f6", "c1-c3-e5-g7", "a3-c3-e5", "b1-d3-d5-f5-f7-h7",
        "a2-c4-e4-e6-g6-i8", "c2-a2-c4-e4-e6-g6-g8", "i8-i9", "d1-d3-d5-f5-f7-h9-j9",
        "a4-c4-e4-e6-g6-i8-k10", "f6-h8-j10-l10", "l10-m11", "d4-f6-h8-j10-l10-n12", "b2-c3",
        "b4-b2-d4-f6-h8-j10-l10", "d2-b4-b2-d4-f6-h8-j10", "b3-b2", "b2-d4-f6-h8",
        "j9-l11-n11-n13", "h7-h9-j9-l11", "k10-m12-o14", "g8-i8-i10-k10-m12-o12-m14",
        "m11-o13-o15", "i9-k11-m11-o13-m13-m15", "g7-i9-k11-m11-o13-m13", "l10-l12-n14-p16",
        "c3-d4", "d4-f6", "e5-g7-i9-k11-m11-o13", "f6-g7", "o13-p13", "g7-i9-k11-m11-o13",
        "h8-i9", "i9-k11", "j10-l12-n14-p14-n16", "k11-l12", "l11-l13-n15-p15", "l12-n14-p14",
        "m14-m16-o16", "n12-n14-l16", "m13-n14", "n13-n15", "l16-m16",
    ),
}

#: board-pieces -> the solver settings that found it: (width, lateral, compact).
HOW_FOUND: dict[str, tuple[int, float, float]] = {
    "star-10": (4000, -0.3, 0.0),
    "halma-19": (2000, 0.3, 0.0),
    "halma-13": (2000, 0, 0.0),
}


def best_crossing(board: str = "star", pieces: int | None = None) -> tuple[str, ...]:
    """The moves of the best stored crossing for ``board`` (Halma: 19 or 13 pieces)."""
    if pieces is None:
        pieces = 10 if board == "star" else 19
    key = f"{board}-{pieces}"
    if key not in SOLUTIONS:
        raise KeyError(f"no stored crossing for {key!r}")
    return SOLUTIONS[key]
