"""Facts about the 56 tiles, checked against counting arguments, not the code."""

from __future__ import annotations

from collections import Counter
from math import comb

import pytest

from mathgames.core.errors import InvalidMoveError
from mathgames.triomino import Tile, all_tiles, highest_tile


def test_one_tile_per_multiset_of_three_digits():
    tiles = all_tiles()
    # multisets of size 3 from 6 digits: C(6 + 3 - 1, 3)
    assert len(tiles) == comb(8, 3) == 56
    assert len({tuple(sorted(t.digits)) for t in tiles}) == 56


def test_kinds_follow_from_the_construction():
    kinds = Counter(t.kind for t in all_tiles())
    assert kinds["triple"] == 6  # one per digit
    assert kinds["double"] == 6 * 5  # the pair digit, then a different single digit
    assert kinds["different"] == comb(6, 3)


def test_values():
    tiles = all_tiles()
    assert all(t.value == sum(t.digits) for t in tiles)
    assert min(t.value for t in tiles) == 0 and max(t.value for t in tiles) == 15
    # every digit is equally often on the 168 corners, so the total is 168 * 2.5
    assert sum(t.value for t in tiles) == 420


def test_every_digit_appears_equally_often():
    corners = Counter(d for t in all_tiles() for d in t.digits)
    assert corners == {d: 28 for d in range(6)}


def test_digits_read_clockwise_never_decrease():
    for tile in all_tiles():
        a, b, c = tile.digits
        assert a <= b <= c


@pytest.mark.parametrize("text", ["0-2-1", "1-0-2", "2-1-0", "3-5-4", "0-5-3"])
def test_mirror_tiles_do_not_exist(text):
    with pytest.raises(InvalidMoveError, match="mirror"):
        Tile.parse(text)


def test_rotations_are_never_the_mirror_image():
    for tile in all_tiles():
        turns = tile.rotations()
        assert len(turns) == (1 if tile.kind == "triple" else 3)
        mirror = tuple(reversed(tile.digits))
        if tile.kind == "different":
            assert mirror not in turns
        for turn in turns:
            assert Tile(*turn) == tile


@pytest.mark.parametrize("bad", ["", "0-1", "0-1-6", "a-b-c", "1--2", "0-1-2-3", None, 12])
def test_parse_refuses_bad_text(bad):
    with pytest.raises(InvalidMoveError):
        Tile.parse(bad)


def test_text_repr_and_hash():
    for tile in all_tiles():
        assert Tile.parse(str(tile)) == tile
        assert eval(repr(tile), {"Tile": Tile}) == tile
    assert len(set(all_tiles()) | set(all_tiles())) == 56
    with pytest.raises(AttributeError):
        all_tiles()[0].value = 3


def test_highest_tile_breaks_value_ties_by_digits():
    assert highest_tile([Tile.parse("4-4-5"), Tile.parse("3-5-5")]) == Tile.parse("3-5-5")
    assert highest_tile(all_tiles()) == Tile.parse("5-5-5")
    triples = [t for t in all_tiles() if t.kind == "triple"]
    assert highest_tile(triples[:3]) == Tile.parse("2-2-2")
