"""How much room the Matematiko bots leave: their grids against grids arranged in hindsight.

    .venv/bin/python bench/matematiko_hindsight.py              # 100 deals (about 10 minutes)
    .venv/bin/python bench/matematiko_hindsight.py --deals 100 --level hard

A player who knew all 25 numbers before writing any could arrange them for the best
total. This bench arranges each deal's numbers by simulated annealing (random swaps
of two cells, a temperature falling linearly; the best of ``--restarts`` runs), a
lower bound on that best total, and plays the same deals with a level's bot, which
sees only the numbers called so far. It prints both means and how many lines of each
combination the two kinds of grid hold, per deal: where the points a bot misses are.

The deals are the tuning deals (seeds 5,000,000 + i, ``bench/matematiko_bots.py
--seed-base``), not the ones the ladder is measured on.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mathgames.matematiko.bots import LEVELS, play_deal
from mathgames.matematiko.deck import shuffled_deck
from mathgames.matematiko.lines import CELL_LINES, full_line_points, grid_points, line_contents
from mathgames.matematiko.rules import COMBINATIONS, LINES, classify, score_grid

SEED_BASE = 5_000_000
CELLS = tuple(cells for _name, cells in LINES)


def line_score(grid: list[int], line: int) -> int:
    """Points of one line of a full grid (its index into LINES).

    >>> line_score([7] * 4 + [1] + [2] * 20, 0)
    160
    """
    return full_line_points(tuple(sorted(grid[c] for c in CELLS[line])))[line >= 10]


def anneal(deal: list[int], steps: int, seed: int) -> tuple[int, list[int]]:
    """The best total and grid found by one annealing run over the deal's numbers.

    >>> total, grid = anneal([5] * 4 + [9] * 4 + list(range(1, 5)) * 3 + [13] * 4 + [1], 3000, 1)
    >>> total == score_grid([grid[r * 5:r * 5 + 5] for r in range(5)]).total, total >= 300
    (True, True)
    """
    dice = random.Random(seed)
    grid = list(deal)
    dice.shuffle(grid)
    total = grid_points(line_contents(grid))
    best, best_grid = total, list(grid)
    for step in range(steps):
        heat = 30.0 * (1 - step / steps) + 0.5
        a, b = dice.randrange(25), dice.randrange(25)
        if grid[a] == grid[b]:
            continue
        lines = set(CELL_LINES[a]) | set(CELL_LINES[b])
        before = sum(line_score(grid, line) for line in lines)
        grid[a], grid[b] = grid[b], grid[a]
        change = sum(line_score(grid, line) for line in lines) - before
        if change >= 0 or dice.random() < math.exp(change / heat):
            total += change
            if total > best:
                best, best_grid = total, list(grid)
        else:
            grid[a], grid[b] = grid[b], grid[a]
    return best, best_grid


def tally(grid: list[int], counts: Counter[tuple[str, bool]]) -> None:
    """Count the combination each line of a full grid scores, by (name, is a diagonal)."""
    for line, content in enumerate(line_contents(grid)):
        counts[(classify(content), line >= 10)] += 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--level", default="expert", choices=list(LEVELS))
    parser.add_argument("--steps", type=int, default=100_000, help="swaps an annealing run tries")
    parser.add_argument("--restarts", type=int, default=4, help="annealing runs a deal")
    parser.add_argument("--seed-base", type=int, default=SEED_BASE)
    args = parser.parse_args(argv)
    n = args.deals
    bot = LEVELS[args.level].make(seed=0)
    ours, hindsight = Counter(), Counter()
    bot_scores, best_scores = [], []
    for i in range(n):
        deal = shuffled_deck(args.seed_base + i)[:25]
        grid = play_deal(bot, deal)
        bot_scores.append(score_grid([grid[r * 5:r * 5 + 5] for r in range(5)]).total)
        tally(grid, ours)
        best, best_grid = max(anneal(deal, args.steps, seed) for seed in range(args.restarts))
        if best != score_grid([best_grid[r * 5:r * 5 + 5] for r in range(5)]).total:
            raise RuntimeError(f"deal {i}: the annealing total does not match the rules' score")
        best_scores.append(best)
        tally(best_grid, hindsight)
    print(f"Matematiko: the {args.level} level against grids arranged in hindsight, {n} deals "
          f"(seeds {args.seed_base}..{args.seed_base + n - 1})")
    for label, scores in ((args.level, bot_scores), ("hindsight", best_scores)):
        se = statistics.stdev(scores) / n ** 0.5 if n > 1 else 0.0
        print(f"  {label:<10} mean {statistics.mean(scores):6.1f} ± {se:.1f}")
    header = (f"{'combination':<24} {args.level + ' rows+cols':>16} {'diagonals':>10} "
              f"{'hindsight rows+cols':>20} {'diagonals':>10}")
    print(header)
    print("-" * len(header))
    for name in (c.name for c in COMBINATIONS):
        cells = [counts[(name, diagonal)] / n
                 for counts in (ours, hindsight) for diagonal in (False, True)]
        print(f"{name:<24} {cells[0]:16.2f} {cells[1]:10.2f} {cells[2]:20.2f} {cells[3]:10.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
