"""Mosaics: polyiamond counts, symmetries, perimeters, cutting, the editable mosaic, the gallery."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mathgames.core.errors import CorruptSaveError, IllegalMoveError, InvalidMoveError
from mathgames.triomino.geometry import cell_corners, cell_xy, edge_neighbours, parse_cell
from mathgames.triomino.mosaic import (
    MAX_TILES,
    SYMMETRIES,
    Mosaic,
    canonical,
    count_polyiamonds,
    cut_into,
    figure_from_ids,
    from_rows,
    has_holes,
    interior_points,
    is_connected,
    perimeter,
    polyiamonds,
    transform,
)
from mathgames.triomino.mosaic_gallery import GALLERY, Puzzle, puzzle
from mathgames.triomino.mosaic_view import figure_svg, mosaic_svg

# Published values: OEIS A000577 (free) and A006534 (one-sided), n = 1..8.
FREE = [1, 1, 1, 3, 4, 12, 24, 66]
ONE_SIDED = [1, 1, 1, 4, 6, 19, 43, 120]


@pytest.mark.parametrize(("n", "free", "expected"),
                         [(n + 1, True, v) for n, v in enumerate(FREE)]
                         + [(n + 1, False, v) for n, v in enumerate(ONE_SIDED)])
def test_polyiamond_counts_match_the_published_sequences(n, free, expected):
    assert count_polyiamonds(n, free=free) == expected


def test_every_generated_polyiamond_is_connected_and_distinct():
    forms = polyiamonds(6)
    assert len(set(forms)) == len(forms) == 12
    for form in forms:
        assert len(form) == 6 and is_connected(form)
        assert canonical(form) == form


def random_figure(draw_cells: list[tuple[int, int]]) -> frozenset[tuple[int, int]]:
    """Grow a connected figure: each drawn number picks a free neighbour of the figure so far."""
    cells = [(0, 0)]
    for pick_a, pick_b in draw_cells:
        base = cells[pick_a % len(cells)]
        neighbour = edge_neighbours(base)[pick_b % 3]
        if neighbour not in cells:
            cells.append(neighbour)
    return frozenset(cells)


figures = st.lists(st.tuples(st.integers(0, 100), st.integers(0, 2)), max_size=14).map(
    random_figure)
lattice_vectors = st.tuples(st.integers(-20, 20), st.integers(-20, 20)).map(
    lambda v: (v[0] + (v[0] + v[1]) % 2, v[1]))


@settings(max_examples=60, deadline=None)
@given(figure=figures, vector=lattice_vectors)
def test_canonical_forms_are_invariant_under_every_symmetry(figure, vector):
    dx, dy = vector
    moved = frozenset((x + dx, y + dy) for x, y in figure)
    free, one_sided = canonical(figure), canonical(figure, free=False)
    assert canonical(moved) == free
    for turns, mirror in SYMMETRIES:
        image = transform(moved, turns, mirror)
        assert canonical(image) == free
        if not mirror:
            assert canonical(image, free=False) == one_sided
        # a symmetry keeps size, connectedness, perimeter and inner points
        assert len(image) == len(figure) and is_connected(image)
        assert perimeter(image) == perimeter(figure)
        assert len(interior_points(image)) == len(interior_points(figure))


@settings(max_examples=30, deadline=None)
@given(figure=figures)
def test_symmetries_are_rigid_motions_of_the_plane(figure):
    # distances between cell centres are kept by every symmetry (an isometry, not a shear)
    cells = sorted(figure)
    for turns, mirror in SYMMETRIES:
        images = [next(iter(transform({c}, turns, mirror))) for c in cells]
        for a, b, ia, ib in zip(cells, cells[1:], images, images[1:], strict=False):
            assert math.dist(cell_xy(a), cell_xy(b)) == pytest.approx(
                math.dist(cell_xy(ia), cell_xy(ib)), abs=1e-5)


def test_mirror_images_count_once_when_free_and_twice_when_one_sided():
    bar = from_rows(["####"])  # the straight tetriamond is chiral
    assert canonical(bar) == canonical(transform(bar, 0, mirror=True))
    assert canonical(bar, free=False) != canonical(transform(bar, 0, mirror=True), free=False)
    triangle = from_rows([".#", "###"])  # symmetric: the same either way
    assert canonical(triangle, free=False) == canonical(transform(triangle, 0, True), free=False)


@settings(max_examples=40, deadline=None)
@given(figure=figures)
def test_perimeter_follows_picks_theorem_on_the_triangular_lattice(figure):
    # n triangles without holes: perimeter = n + 2 - 2 i (i = lattice points inside)
    if not has_holes(figure):
        assert perimeter(figure) == len(figure) + 2 - 2 * len(interior_points(figure))


def test_perimeter_and_holes_by_hand():
    hexagon = from_rows([".###", ".###"])
    assert perimeter(hexagon) == 6 and len(interior_points(hexagon)) == 1
    assert perimeter({(0, 0)}) == 3
    ring = from_rows(["###", "#.#"])  # the down triangle (1, 1) is enclosed (touching corners)
    assert has_holes(ring) and not is_connected(ring) and perimeter(ring) == 5 + 3 + 3
    assert not has_holes(hexagon - {(2, 1)}) and perimeter(hexagon - {(2, 1)}) == 7
    assert not is_connected({(0, 0), (5, 5)})


def test_cutting_into_pieces():
    hexagon = from_rows([".###", ".###"])
    triamond, diamond = {(0, 0), (1, 0), (2, 0)}, {(0, 0), (1, 0)}
    pieces = cut_into(hexagon, [triamond, triamond])
    assert pieces is not None and frozenset().union(*pieces) == hexagon
    assert all(canonical(p) == canonical(triamond) for p in pieces)
    assert cut_into(from_rows([".#", "###"]), [diamond, diamond]) is None
    assert cut_into(hexagon, [triamond]) is None  # wrong total
    # three rows of eight cut into six straight tetriamonds
    big = from_rows(["#" * 8, "#" * 8, "#" * 8])
    cut = cut_into(big, [from_rows(["####"])] * 6)
    assert cut is not None and sorted(len(p) for p in cut) == [4] * 6
    assert frozenset().union(*cut) == big and sum(map(len, cut)) == len(big)


def test_the_mosaic_places_removes_and_undoes():
    m = Mosaic()
    m.place((0, 0), colour=1)
    m.place((1, 0))
    with pytest.raises(IllegalMoveError):
        m.place((0, 0))
    with pytest.raises(InvalidMoveError):
        m.place((2, 0), colour=99)
    assert len(m) == 2
    m.remove((0, 0))
    assert set(m.cells) == {(1, 0)}
    with pytest.raises(IllegalMoveError):
        m.remove((0, 0))
    m.undo()
    assert m.cells == {(0, 0): 1, (1, 0): 0}
    m.clear()
    assert len(m) == 0
    m.undo()
    assert len(m) == 2


def test_at_most_56_tiles():
    m = Mosaic()
    for k in range(MAX_TILES):
        m.place((k, 0))
    with pytest.raises(IllegalMoveError, match="56"):
        m.place((0, 1))
    assert len(m) == MAX_TILES


def test_selection_moves_rotates_and_mirrors_as_a_whole():
    m = Mosaic()
    shape = from_rows([".#", "###"])  # the triangle of four
    for cell in shape:
        m.place(cell)
    m.place((10, 4))
    m.select(shape)
    before = canonical(m.selection)
    m.rotate_selection()
    assert canonical(m.selection) == before and len(m) == 5 and (10, 4) in m.cells
    m.mirror_selection()
    assert canonical(m.selection) == before
    m.move_selection(2, 0)
    assert canonical(m.selection) == before
    with pytest.raises(InvalidMoveError):
        m.move_selection(1, 0)  # not a lattice vector: up and down triangles would swap
    # a move onto another triangle is refused and changes nothing
    cells = dict(m.cells)
    with pytest.raises(IllegalMoveError):
        m.move_selection(*_vector_onto(m, (10, 4)))
    assert m.cells == cells
    m.remove_selection()
    assert set(m.cells) == {(10, 4)}


def _vector_onto(m: Mosaic, goal: tuple[int, int]) -> tuple[int, int]:
    for x, y in m.selection:
        dx, dy = goal[0] - x, goal[1] - y
        if (dx + dy) % 2 == 0:
            return dx, dy
    raise AssertionError("no selected cell of the same kind")


def test_a_chiral_selection_mirrors_into_its_mirror_image():
    m = Mosaic()
    bar = from_rows(["####"])
    for cell in bar:
        m.place(cell)
    m.select(bar)
    m.rotate_selection()  # a turned bar is still the same one-sided piece
    assert canonical(m.selection, free=False) == canonical(bar, free=False)
    m.mirror_selection()
    assert canonical(m.selection, free=False) != canonical(bar, free=False)


def test_save_and_load_round_trip_and_refuse_bad_input():
    m = Mosaic()
    for cell, colour in (((0, 0), 0), ((1, 0), 3), ((1, 1), 5)):
        m.place(cell, colour)
    copy = Mosaic.from_json(m.to_json())
    assert copy.cells == m.cells
    good = json.loads(m.to_json())
    bad_inputs = [
        "not json", "[]", json.dumps({**good, "format": "other"}),
        json.dumps({**good, "version": 2}), json.dumps({**good, "cells": "x"}),
        json.dumps({**good, "cells": [[0, 0]]}), json.dumps({**good, "cells": [[0, 0, 0]] * 2}),
        json.dumps({**good, "cells": [[0, 0, True]]}), json.dumps({**good, "cells": [[0, 0, 7]]}),
        json.dumps({**good, "cells": [[k, 0, 0] for k in range(57)]}),
        json.dumps({**good, "cells": [[10**6, 0, 0]]}), 12,
        "[" * 40_000 + "]" * 40_000,  # nested deeper than Python's JSON reader goes
    ]
    for text in bad_inputs:
        with pytest.raises(CorruptSaveError):
            Mosaic.from_json(text)


def test_a_corrupt_cell_is_named_and_shown_as_it_was_written_cut_short():
    good = json.loads(Mosaic().to_json())
    cases = [([[1, 1, 0], [0, 0]], "cell 1: [0, 0] is not [x, y, colour]"),
             ([[0] * 100], "cell 0: [" + "0, " * 12 + "0,… is not [x, y, colour]")]
    for cells, said in cases:
        with pytest.raises(CorruptSaveError) as info:
            Mosaic.from_json(json.dumps({**good, "cells": cells}))
        assert str(info.value) == said


def test_every_gallery_puzzle_is_solved_by_its_stored_solution_and_drawn():
    assert [p.key for p in GALLERY][:1] == ["honeycomb"]
    assert {"snake", "bird", "cat", "samurai"} <= {p.key for p in GALLERY}
    assert GALLERY[0].size == 6 and max(p.size for p in GALLERY) >= 40
    for item in GALLERY:
        outline = item.outline
        assert item.size <= MAX_TILES and is_connected(outline) and not item.has_holes
        # the stored solution, placed one by one on a mosaic, fills the outline exactly
        m = Mosaic()
        for text in item.solution:
            m.place(parse_cell(text))
        assert item.is_filled_by(m.figure), item.key
        assert not item.is_filled_by(m.figure - {parse_cell(item.solution[0])})
        # the view draws the silhouette: one clickable triangle per cell and a border
        svg = mosaic_svg({}, board=(20, 12), outline=outline)
        shaded = svg.count('fill="#dfe9f3"')
        assert shaded == len(outline) and 'class="mg-outline"' in svg
        printed = figure_svg(outline, outline=True)
        assert printed.count("<polygon") == len(outline) and "data-cell" not in printed


@settings(max_examples=20, deadline=None)
@given(key=st.sampled_from([p.key for p in GALLERY]), order=st.randoms(use_true_random=False))
def test_a_filled_silhouette_is_recognised_whatever_the_order(key, order):
    item = puzzle(key)
    cells = [parse_cell(t) for t in item.solution]
    order.shuffle(cells)
    m = Mosaic()
    for k, cell in enumerate(cells):
        assert not item.is_filled_by(m.figure) or k == len(cells)
        m.place(cell)
    assert item.is_filled_by(m.figure)


def test_a_puzzle_from_a_saved_figure():
    m = Mosaic()
    for cell in from_rows(["..###", "..####"]):
        m.place(cell, 2)
    made = Puzzle.from_figure(Mosaic.from_json(m.to_json()).figure)
    assert made.size == 7 and made.is_filled_by(figure_from_ids(made.solution))
    assert canonical(made.outline) == canonical(m.figure)
    with pytest.raises(IllegalMoveError):
        Puzzle.from_figure(set())
    with pytest.raises(InvalidMoveError):
        puzzle("dragon")


def test_cell_corner_sanity():
    # the lattice the mosaic uses: a cell and its three neighbours share an edge (two corners)
    for cell in [(0, 0), (1, 0), (3, 2)]:
        for n in edge_neighbours(cell):
            assert len(set(cell_corners(cell)) & set(cell_corners(n))) == 2
