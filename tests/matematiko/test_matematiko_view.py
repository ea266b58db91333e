"""The pure view: the SVG says what the core says."""

from __future__ import annotations

import re

from mathgames.matematiko.deck import deal_for_code
from mathgames.matematiko.odds import placement_hints
from mathgames.matematiko.rules import score_grid
from mathgames.matematiko.view import render_grid


def test_every_full_line_shows_the_cores_points_and_the_total():
    deal = list(deal_for_code("V1EW22".replace("1", "2")))
    svg = render_grid(deal, current=deal[-1], code="V2EW22", placing=False)
    result = score_grid([deal[r * 5:r * 5 + 5] for r in range(5)])
    shown = {int(i): (int(p), c) for i, p, c in re.findall(
        r'data-line="(\d+)" data-points="(\d+)" data-combination="([a-z_]+)"', svg)}
    assert shown == {i: (line.points, line.combination) for i, line in enumerate(result.lines)}
    assert f'data-total="{result.total}"' in svg
    assert svg.count("data-cell=") == 25 and "data-hover-for" not in svg


def test_a_partial_grid_scores_only_full_lines_and_offers_the_number_on_hover():
    grid = [1, 2, 3, 4, 5] + [None] * 20
    svg = render_grid(grid, current=9, cursor=7)
    assert re.findall(r'data-line="(\d+)" data-points="(\d+)"', svg) == [("0", "50")]
    assert svg.count("data-hover-for=") == 20 and 'class="mg-cursor"' in svg


def test_hints_are_written_in_empty_cells_and_the_best_is_marked():
    grid = [7, 7, None, None, None] + [None] * 20
    hints = placement_hints(grid, 7, [7, 7, 7])
    svg = render_grid(grid, current=7, hints=hints)
    assert svg.count('class="mg-hint"') == sum(2 + len(h.diagonals) for h in hints.values())
    assert 'class="mg-best-hint"' in svg
    # three 7s in row 1 is worth more than anywhere else
    best = max(hints, key=lambda c: hints[c].total)
    assert best in (2, 3, 4)
