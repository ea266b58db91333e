"""The 56 Triomino tiles: value objects with a canonical text form.

A tile carries three digits 0-5, read clockwise. Read clockwise from its
smallest digit, the digits never decrease, so every *multiset* of three digits
is exactly one tile, and the set is built from that construction:

>>> tiles = all_tiles()
>>> len(tiles), sum(tile.value for tile in tiles)
(56, 420)
>>> [sum(1 for t in tiles if t.kind == kind) for kind in ("triple", "double", "different")]
[6, 30, 20]
>>> Tile.parse("0-1-2")
Tile.parse('0-1-2')
>>> Tile.parse("1-2-0") == Tile.parse("0-1-2")   # the same tile, read from another corner
True
>>> Tile.parse("0-2-1")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
mathgames.core.errors.InvalidMoveError: '0-2-1' is the mirror image of 0-1-2; ...
"""

from __future__ import annotations

from itertools import combinations_with_replacement

from mathgames.core.errors import InvalidMoveError, quoted

__all__ = ["DIGITS", "Tile", "all_tiles", "highest_tile"]

#: The digits a corner can carry.
DIGITS = range(6)


class Tile:
    """One triangular tile: digits ``a <= b <= c`` clockwise.

    ``Tile(a, b, c)`` takes any rotation of a clockwise reading;
    :meth:`parse` reads the text form ``"a-b-c"``.

    >>> tile = Tile(2, 0, 1)
    >>> tile, str(tile), tile.value, tile.digits
    (Tile.parse('0-1-2'), '0-1-2', 3, (0, 1, 2))
    >>> Tile.parse("4-4-1").rotations()
    ((1, 4, 4), (4, 4, 1), (4, 1, 4))
    >>> Tile.parse("5-5-5").rotations()
    ((5, 5, 5),)
    """

    __slots__ = ("_hash", "_rotations", "digits", "kind", "value")

    digits: tuple[int, int, int]
    value: int
    kind: str

    def __init__(self, a: int, b: int, c: int) -> None:
        reading = (a, b, c)
        if not all(isinstance(d, int) and not isinstance(d, bool) and 0 <= d <= 5
                   for d in reading):
            raise InvalidMoveError(f"{quoted(reading)} is not a tile: each corner is a digit 0-5")
        canonical = min(reading[i:] + reading[:i] for i in range(3))
        if not canonical[0] <= canonical[1] <= canonical[2]:
            mirror = "-".join(map(str, sorted(reading)))
            text = "-".join(map(str, reading))
            raise InvalidMoveError(
                f"{text!r} is the mirror image of {mirror}; a tile cannot be turned over")
        object.__setattr__(self, "digits", canonical)
        object.__setattr__(self, "value", sum(canonical))
        distinct = len(set(canonical))
        object.__setattr__(self, "kind", {1: "triple", 2: "double", 3: "different"}[distinct])
        turns = []
        for i in range(3):
            turn = canonical[i:] + canonical[:i]
            if turn not in turns:
                turns.append(turn)
        object.__setattr__(self, "_rotations", tuple(turns))
        object.__setattr__(self, "_hash", hash(canonical))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a Tile is immutable")

    @classmethod
    def parse(cls, text: str) -> Tile:
        """The tile written ``"a-b-c"`` (digits clockwise).

        >>> Tile.parse(" 3-3-5 ").value
        11
        >>> Tile.parse("3-x-5")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        mathgames.core.errors.InvalidMoveError: '3-x-5' is not a tile; ...
        """
        parts = text.strip().split("-") if isinstance(text, str) else []
        if len(parts) != 3 or not all(len(p) == 1 and p in "012345" for p in parts):
            raise InvalidMoveError(
                f"{quoted(text)} is not a tile; write three digits 0-5 like 0-1-2")
        return cls(*(int(p) for p in parts))

    def rotations(self) -> tuple[tuple[int, int, int], ...]:
        """The distinct clockwise readings: rotation ``r`` starts at ``digits[r]``.

        Three for most tiles, one for a triple; never the mirror image.
        """
        return self._rotations

    def rotated(self, rotation: int) -> tuple[int, int, int]:
        """The clockwise reading that starts at ``digits[rotation % 3]``.

        >>> Tile.parse("0-1-2").rotated(1)
        (1, 2, 0)
        """
        r = rotation % 3
        return self.digits[r:] + self.digits[:r]

    @property
    def rank_key(self) -> tuple[int, tuple[int, ...]]:
        """Order for "the highest tile": value, then the digits from high to low.

        >>> Tile.parse("3-5-5").rank_key > Tile.parse("4-4-5").rank_key
        True
        """
        return (self.value, tuple(sorted(self.digits, reverse=True)))

    def count(self, digit: int) -> int:
        """How many corners show ``digit``."""
        return self.digits.count(digit)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Tile) and self.digits == other.digits

    def __lt__(self, other: Tile) -> bool:
        return self.digits < other.digits

    def __hash__(self) -> int:
        return self._hash

    def __str__(self) -> str:
        return "-".join(map(str, self.digits))

    def __repr__(self) -> str:
        return f"Tile.parse('{self}')"

    def __reduce__(self) -> tuple[type, tuple[int, int, int]]:
        return (Tile, self.digits)


def all_tiles() -> list[Tile]:
    """The 56 tiles, one per multiset of three digits, in ascending order.

    >>> all_tiles()[:3]
    [Tile.parse('0-0-0'), Tile.parse('0-0-1'), Tile.parse('0-0-2')]
    """
    return [Tile(a, b, c) for a, b, c in combinations_with_replacement(DIGITS, 3)]


def highest_tile(tiles: list[Tile] | tuple[Tile, ...] | set[Tile]) -> Tile:
    """The highest tile by :attr:`Tile.rank_key` (value, then digits high to low).

    >>> highest_tile([Tile.parse("3-5-5"), Tile.parse("4-4-5"), Tile.parse("1-1-1")])
    Tile.parse('3-5-5')
    """
    return max(tiles, key=lambda tile: tile.rank_key)
