"""Legality and bonus detection on hand-built tables.

Cells and corners are written out by hand from the coordinate definition:
down cell (x, y) [x + y even]: top-left (x, y), top-right (x+2, y), bottom (x+1, y+1);
up cell (x, y) [x + y odd]: top (x+1, y), bottom-right (x+2, y+1), bottom-left (x, y+1).
"""

from __future__ import annotations

import pytest

from mathgames.core.errors import IllegalMoveError
from mathgames.triomino import Placement, Table, Tile, all_tiles

T = Tile.parse


def P(tile, x, y, r=0):
    return Placement(T(tile), (x, y), r)


def unchecked(*placements):
    table = Table()
    for p in placements:
        table.place(p)
    return table


# -- legality --------------------------------------------------------------------
def test_first_tile_and_edge_contact():
    table = Table()
    assert table.fits(P("3-4-5", 7, 3))  # the first tile: anywhere
    table = Table([P("1-2-3", 0, 0)])
    assert table.points() == {(0, 0): 1, (2, 0): 2, (1, 1): 3}
    # (2, 0) touches the tile only at point (2, 0): no shared edge
    with pytest.raises(IllegalMoveError, match="share an edge"):
        table.check(P("2-2-2", 2, 0))
    with pytest.raises(IllegalMoveError, match="already taken"):
        table.check(P("1-2-3", 0, 0))


def test_a_shared_edge_needs_two_equal_digits_and_the_message_names_the_corner():
    table = Table([P("1-2-3", 0, 0)])
    # up cell (1, 0): top = (2, 0) shows 2, bottom-left = (1, 1) shows 3
    assert table.required((1, 0)) == (2, None, 3)
    assert table.fits(P("2-2-3", 1, 0))
    with pytest.raises(IllegalMoveError, match="bottom-left corner of 2-4-5 shows 5 but the "
                                               "table has 3"):
        table.check(P("2-4-5", 1, 0))
    with pytest.raises(IllegalMoveError, match="top corner of 3-4-5 shows 3 but the table has 2"):
        table.check(P("3-4-5", 1, 0))


def test_a_notch_needs_three_digits():
    # A = 0-2-5 on down (0, 0): (0,0)=0 (2,0)=2 (1,1)=5
    # C = 2-3-4 on down (2, 0): (2,0)=2 (4,0)=3 (3,1)=4
    table = unchecked(P("0-2-5", 0, 0), P("2-3-4", 2, 0))
    # the notch: up (1, 0) with top (2,0)=2, bottom-right (3,1)=4, bottom-left (1,1)=5
    assert table.required((1, 0)) == (2, 4, 5)
    fits = {str(p.tile) for p in table.placements_for(all_tiles()) if p.cell == (1, 0)}
    assert fits == {"2-4-5"}
    with pytest.raises(IllegalMoveError, match="bottom-left corner of 2-4-4"):
        table.check(P("2-4-4", 1, 0))


def test_point_only_contact_must_match():
    # X = 1-2-3 on down (2, 0): (2,0)=1 (4,0)=2 (3,1)=3
    # Y = 4-4-5 on up (0, 1): (1,1)=4 (2,2)=4 (0,2)=5 - it touches (1, 0) only at (1, 1)
    table = unchecked(P("1-2-3", 2, 0), P("4-4-5", 0, 1))
    assert table.required((1, 0)) == (1, 3, 4)
    assert table.fits(P("1-3-4", 1, 0))
    with pytest.raises(IllegalMoveError, match="bottom-left corner of 1-3-5 shows 5"):
        table.check(P("1-3-5", 1, 0))


def test_the_missing_mirror_tile_leaves_a_spot_unfillable():
    # as above, but Y = 2-2-2: the spot (1, 0) needs 1, 3, 2 clockwise - only the mirror
    # image of 1-2-3 would do, and it does not exist
    table = unchecked(P("1-2-3", 2, 0), P("2-2-2", 0, 1))
    assert table.required((1, 0)) == (1, 3, 2)
    assert not [p for p in table.placements_for(all_tiles()) if p.cell == (1, 0)]
    with pytest.raises(IllegalMoveError, match="corner of 1-2-3"):
        table.check(P("1-2-3", 1, 0, 2))


def test_placements_of_a_hand_match_a_brute_force_scan():
    table = Table([P("1-2-3", 0, 0), P("2-2-3", 1, 0), P("2-2-4", 2, 0, 1)])
    hand = [T("1-1-2"), T("0-1-3"), T("2-3-3"), T("3-3-5"), T("5-5-5"), T("1-2-2")]
    found = {(p.tile, p.cell, p.digits) for p in table.placements_for(hand)}
    brute = set()
    for x in range(-6, 8):
        for y in range(-5, 6):
            for tile in hand:
                for r in range(3):
                    p = Placement(tile, (x, y), r)
                    try:
                        table.check(p)
                    except IllegalMoveError:
                        continue
                    brute.add((tile, (x, y), p.digits))
    assert found == brute and found


# -- bonuses (occupancy only, so any tiles will do) ------------------------------------
Z = "0-0-0"

# the hexagon around point (2, 0), in ring order
RING = [(0, -1), (1, -1), (2, -1), (2, 0), (1, 0), (0, 0)]
# the twelve cells around the three corners of up (1, 0) - (2,0), (3,1), (1,1) - minus (1, 0)
AROUND_1_0 = [(0, -1), (1, -1), (2, -1), (2, 0), (0, 0), (3, 0), (1, 1), (2, 1), (3, 1),
              (-1, 0), (-1, 1), (0, 1)]


def test_one_hexagon():
    table = unchecked(*(P(Z, x, y) for x, y in RING[:5]))
    bonus = table.bonus(RING[5])
    assert (bonus.kind, bonus.hexagons) == ("hexagon", 1)
    # one cell short: the fifth cell shares two edges and completes nothing
    table = unchecked(*(P(Z, x, y) for x, y in RING[:4]))
    assert table.bonus(RING[4]).kind is None  # one edge, opposite corner (1, 1) is free


def test_two_and_three_hexagons_at_once():
    table = unchecked(*(P(Z, x, y) for x, y in AROUND_1_0))
    bonus = table.bonus((1, 0))
    assert (bonus.kind, bonus.hexagons, bonus.edges) == ("hexagon", 3, 3)
    # leave out (-1, 1): only the hexagon around (1, 1) is incomplete
    table = unchecked(*(P(Z, x, y) for x, y in AROUND_1_0 if (x, y) != (-1, 1)))
    assert (table.bonus((1, 0)).kind, table.bonus((1, 0)).hexagons) == ("hexagon", 2)
    # leave out (-1, 1) and (3, 0): only the hexagon around (2, 0) is complete
    table = unchecked(*(P(Z, x, y) for x, y in AROUND_1_0 if (x, y) not in {(-1, 1), (3, 0)}))
    assert (table.bonus((1, 0)).kind, table.bonus((1, 0)).hexagons) == ("hexagon", 1)


def test_bridge_is_not_a_two_sided_fit():
    table = unchecked(P("1-2-3", 2, 0), P("4-4-5", 0, 1))
    bonus = table.bonus((1, 0))
    assert (bonus.kind, bonus.edges) == ("bridge", 1)


def test_no_bridge_when_the_opposite_corner_is_free_or_a_second_edge_touches():
    assert unchecked(P(Z, 2, 0)).bonus((1, 0)).kind is None
    # a tile on (0, 0) touches (1, 0) along an edge as well: a two-sided fit, not a bridge
    table = unchecked(P(Z, 2, 0), P(Z, 0, 1), P(Z, 0, 0))
    assert (table.bonus((1, 0)).kind, table.bonus((1, 0)).edges) == ("two_sided", 2)


def test_two_sided_fit_in_a_notch():
    table = unchecked(P("0-2-5", 0, 0), P("2-3-4", 2, 0))
    assert table.bonus((1, 0)).kind == "two_sided"


def test_frontier_is_the_edge_neighbours_of_the_tiles():
    table = Table([P("1-2-3", 0, 0), P("2-2-3", 1, 0)])
    assert table.frontier() == {(0, -1), (-1, 0), (2, 0), (1, 1)}
