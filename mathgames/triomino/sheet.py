"""The score sheet: every score change is one entry with a reason code and numbers.

Entries are language-neutral data (saved as such); :meth:`ScoreEntry.describe`
renders one in the current language, so a teacher can explain every number.

>>> ScoreEntry(1, 0, "bridge", 40).describe()
'bridge +40'
>>> ScoreEntry(1, 1, "draw", -10, count=2).describe()
'drew 2 tiles -10'
>>> ScoreEntry(2, 0, "hexagon", 60, count=2).describe()
'double hexagon +60'
"""

from __future__ import annotations

from dataclasses import dataclass

from mathgames.core.errors import CorruptSaveError
from mathgames.core.i18n import translator

__all__ = ["REASONS", "ScoreEntry"]

_ = translator("triomino")

#: Every reason code an entry can carry.
REASONS = (
    "tile", "start", "zero_start", "hexagon", "bridge", "two_sided", "draw", "no_fit",
    "empty_pool", "out", "opponents", "blocked_win",
)


@dataclass(frozen=True)
class ScoreEntry:
    """One line of the score sheet.

    ``round`` counts from 1; ``player`` is an index; ``reason`` is one of
    :data:`REASONS`; ``count`` is the number the reason speaks of (hexagons,
    drawn tiles, points left in the opponents' hands); ``tile`` the tile text
    where one is concerned; ``turn`` the game's turn counter.
    """

    round: int
    player: int
    reason: str
    points: int
    count: int = 0
    tile: str = ""
    turn: int = 0

    def describe(self) -> str:
        """The entry in words, in the current language: ``"bridge +40"``."""
        points = f"{self.points:+d}"
        n, tile = self.count, self.tile
        reason = self.reason
        if reason == "tile":
            text = _("tile {tile} {points}")
        elif reason == "start":
            text = _("start bonus {points}")
        elif reason == "zero_start":
            text = _("started with 0-0-0 {points}")
        elif reason == "hexagon":
            text = {1: _("hexagon {points}"), 2: _("double hexagon {points}")}.get(
                n, _("triple hexagon {points}"))
        elif reason == "bridge":
            text = _("bridge {points}")
        elif reason == "two_sided":
            text = _("two-sided fit {points}")
        elif reason == "draw":
            text = _.ngettext("drew {n} tile {points}", "drew {n} tiles {points}", n)
        elif reason == "no_fit":
            text = _("no drawn tile was placed {points}")
        elif reason == "empty_pool":
            text = _("pool empty, could not place {points}")
        elif reason == "out":
            text = _("went out {points}")
        elif reason == "opponents":
            text = _("tiles left in the opponents' hands {points}")
        else:
            text = _("won the blocked round {points}")
        return text.format(points=points, n=n, tile=tile)

    def to_list(self) -> list:
        """Plain data: ``[round, player, reason, points, count, tile, turn]``."""
        return [self.round, self.player, self.reason, self.points, self.count, self.tile,
                self.turn]

    @classmethod
    def from_list(cls, data: list) -> ScoreEntry:
        """The entry of :meth:`to_list` (:class:`CorruptSaveError`, a ValueError, on bad data).

        >>> ScoreEntry.from_list([1, 0, "magic", 5, 0, "", 0])  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        mathgames.core.errors.CorruptSaveError: not a score entry [round, player, reason, ...]
        """
        bad = CorruptSaveError(
            "not a score entry [round, player, reason, points, count, tile, turn]")
        if not isinstance(data, list) or len(data) != 7:
            raise bad
        rnd, player, reason, points, count, tile, turn = data
        ints = (rnd, player, points, count, turn)
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in ints):
            raise bad
        if not isinstance(reason, str) or reason not in REASONS or not isinstance(
                tile, str) or len(tile) > 5:
            raise bad
        return cls(rnd, player, reason, points, count, tile, turn)
