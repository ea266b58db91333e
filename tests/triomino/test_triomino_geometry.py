"""The coordinate system: distances, orientation and adjacency in Cartesian terms."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mathgames.core.errors import InvalidMoveError
from mathgames.triomino import (
    cell_corners,
    cell_id,
    cell_xy,
    cells_around,
    edge_neighbours,
    is_up,
    parse_cell,
    point_xy,
)

cells = st.tuples(st.integers(-40, 40), st.integers(-40, 40))
points = cells.map(lambda c: (c[0] * 2 + c[1] % 2, c[1]))


def dist(p, q):
    (x1, y1), (x2, y2) = point_xy(p), point_xy(q)
    return math.hypot(x1 - x2, y1 - y2)


@settings(max_examples=200)
@given(cells)
def test_a_cell_is_a_unit_equilateral_triangle_listed_clockwise(cell):
    a, b, c = cell_corners(cell)
    for p, q in ((a, b), (b, c), (c, a)):
        assert dist(p, q) == pytest.approx(1.0, abs=1e-5)
    (ax, ay), (bx, by), (cx, cy) = point_xy(a), point_xy(b), point_xy(c)
    # with y pointing down, a clockwise (on screen) triangle has a positive cross product
    assert (bx - ax) * (cy - ay) - (by - ay) * (cx - ax) > 0
    # an up cell has one corner above the other two, a down cell one below
    ys = sorted([ay, by, cy])
    assert (ys[0] < ys[1]) == is_up(cell)


@settings(max_examples=200)
@given(cells)
def test_edge_neighbours_share_exactly_the_edge(cell):
    corners = cell_corners(cell)
    for k, other in enumerate(edge_neighbours(cell)):
        shared = set(corners) & set(cell_corners(other))
        assert shared == {corners[k], corners[(k + 1) % 3]}
        assert cell in edge_neighbours(other)
        assert is_up(other) != is_up(cell)
        cx, cy = cell_xy(cell)
        ox, oy = cell_xy(other)
        # centres of edge-adjacent cells are 1/sqrt(3) apart
        assert math.hypot(cx - ox, cy - oy) == pytest.approx(1 / math.sqrt(3), abs=1e-5)


@settings(max_examples=200)
@given(points)
def test_six_cells_around_a_point(point):
    around = cells_around(point)
    assert len(set(around)) == 6
    px, py = point_xy(point)
    for cell in around:
        assert point in cell_corners(cell)
        cx, cy = cell_xy(cell)
        # a centroid is 1/sqrt(3) from each corner
        assert math.hypot(cx - px, cy - py) == pytest.approx(1 / math.sqrt(3), abs=1e-5)
    # listed in ring order: consecutive cells share an edge
    for k in range(6):
        assert around[(k + 1) % 6] in edge_neighbours(around[k])


def test_hand_derived_coordinates():
    # the first row, drawn by hand: down (0,0), up (1,0), down (2,0)
    assert cell_corners((0, 0)) == ((0, 0), (2, 0), (1, 1))
    assert cell_corners((1, 0)) == ((2, 0), (3, 1), (1, 1))
    assert cell_corners((2, 0)) == ((2, 0), (4, 0), (3, 1))
    assert point_xy((3, 1)) == (1.5, round(math.sqrt(3) / 2, 6))
    with pytest.raises(InvalidMoveError):
        cells_around((1, 0))


@given(cells)
def test_cell_ids_round_trip(cell):
    assert parse_cell(cell_id(cell)) == cell


@pytest.mark.parametrize("bad", ["", "c", "c1", "c1_", "x1_2", "c1_2_3", "c99999_0", 5])
def test_bad_cell_ids(bad):
    with pytest.raises(InvalidMoveError):
        parse_cell(bad)
