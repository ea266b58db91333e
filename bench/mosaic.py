"""Benchmark of the mosaic core: counting polyiamonds by generation, and cutting figures.

    .venv/bin/python bench/mosaic.py

Prints CPU time (``time.process_time``), which other processes on a shared
machine distort less than wall-clock time, for counting the free and one-sided
polyiamonds of n = 1..9 triangles (the issue asks for n up to 8 in a few
seconds), for the SVG and PNG of the largest gallery puzzle, for a few cuttings,
and for one click in the mosaic widget.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mathgames.triomino.mosaic import count_polyiamonds, cut_into, from_rows
from mathgames.triomino.mosaic_gallery import GALLERY
from mathgames.triomino.mosaic_view import figure_png, mosaic_svg

FREE = [1, 1, 1, 3, 4, 12, 24, 66, 160]  # OEIS A000577
ONE_SIDED = [1, 1, 1, 4, 6, 19, 43, 120, 307]  # OEIS A006534
HEXAGON_24 = from_rows([".#####", "#######", "#######", ".#####"])


def cpu(func, *args, **kwargs):
    start = time.process_time()
    result = func(*args, **kwargs)
    return result, time.process_time() - start


def main() -> int:
    print("counting polyiamonds (each size generated from scratch)")
    print(f"{'n':>2} {'free':>6} {'OEIS':>6} {'CPU s':>7} {'one-sided':>10} {'OEIS':>6} "
          f"{'CPU s':>7}")
    total = 0.0
    ok = True
    for n in range(1, 10):
        free, t_free = cpu(count_polyiamonds, n)
        one, t_one = cpu(count_polyiamonds, n, free=False)
        total += t_free + t_one if n <= 8 else 0.0
        ok &= free == FREE[n - 1] and one == ONE_SIDED[n - 1]
        print(f"{n:2d} {free:6d} {FREE[n - 1]:6d} {t_free:7.3f} {one:10d} {ONE_SIDED[n - 1]:6d} "
              f"{t_one:7.3f}")
    print(f"n = 1..8, free and one-sided together: {total:.2f} s CPU; all equal to OEIS: {ok}")
    samurai = max(GALLERY, key=lambda p: p.size)
    _, t_svg = cpu(mosaic_svg, {c: 0 for c in samurai.outline}, (28, 12), samurai.outline)
    _, t_png = cpu(figure_png, {c: 0 for c in samurai.outline}, samurai.outline)
    print(f"the {samurai.key} ({samurai.size} triangles): board SVG {t_svg * 1000:.1f} ms, "
          f"PNG {t_png * 1000:.1f} ms CPU")
    cases = [
        ("3 rows of 8 into six straight tetriamonds", from_rows(["#" * 8] * 3),
         [from_rows(["####"])] * 6),
        ("fish into four diamonds", from_rows(["####", "####"]), [from_rows(["##"])] * 4),
        ("the 24-triangle hexagon into eight triamonds", HEXAGON_24, [from_rows(["###"])] * 8),
        ("the 24-triangle hexagon into six straight tetriamonds", HEXAGON_24,
         [from_rows(["####"])] * 6),
        ("the 24-triangle hexagon into a bar of six and three small hexagons", HEXAGON_24,
         [from_rows(["######"])] + [from_rows([".###", ".###"])] * 3),
    ]
    for name, figure, pieces in cases:
        found, t_cut = cpu(cut_into, figure, pieces)
        print(f"cut {name}: {'yes' if found else 'no'} in {t_cut * 1000:.1f} ms CPU")
    from mathgames.triomino.mosaic_widget import MosaicApp

    app = MosaicApp(puzzle=samurai.key)
    cells = app.target_ids()
    start = time.process_time()
    for cell in cells:
        app.board.click_cell(cell)
    per_click = (time.process_time() - start) / len(cells)
    print(f"the mosaic widget, filling the {samurai.key} by {len(cells)} clicks: "
          f"{per_click * 1000:.1f} ms CPU per click (view, status, JSON, SVG and PNG downloads); "
          f"solved: {app.solved}; {len(app.board.svg) + len(app.downloads.value):,} characters "
          "sent per click")
    return 0 if ok and app.solved else 1


if __name__ == "__main__":
    sys.exit(main())
