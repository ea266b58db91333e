"""Precompute the lessons' slow results that do not depend on the student.

A lesson page must show its first chart within seconds, so the seeded simulations
and the bots' games that every visitor would otherwise recompute are computed once
here and stored in ``data/<lesson>.json``; the lessons read them. The tests in
``tests/lessons/test_lesson_data.py`` recompute a part of each and compare.

    .venv/bin/python notebooks/explore/precompute.py          # rewrite every data file
"""

from __future__ import annotations

import json
import random
import statistics
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"

GRIDS, GRID_SEED = 20_000, 2026
DEALS = 16
TRIOMINO_DEALS, TRIOMINO_SEED = 20_000, 2026


def random_grid_totals(count: int = GRIDS, seed: int = GRID_SEED) -> list[int]:
    """The scores of ``count`` Matematiko grids filled with 25 random cards (seeded)."""
    from mathgames.matematiko import score_grid
    from mathgames.matematiko.rules import DECK

    rng = random.Random(seed)
    totals = []
    for _ in range(count):
        cards = rng.sample(DECK, 25)
        totals.append(score_grid([cards[i:i + 5] for i in range(0, 25, 5)]).total)
    return totals


def bot_totals(deals: range = range(1, DEALS + 1)) -> dict[str, list[int]]:
    """The scores of the random, greedy and strong bots on the deals shuffled with ``deals``."""
    from mathgames.matematiko import score_grid
    from mathgames.matematiko.bots import make_bot, play_deal
    from mathgames.matematiko.deck import shuffled_deck

    totals: dict[str, list[int]] = {"random": [], "greedy": [], "strong": []}
    for seed in deals:
        deal = shuffled_deck(seed)[:25]
        for name, scores in totals.items():
            if name == "random":
                bot = make_bot("random", seed=seed - 1)
            elif name == "strong":   # no time limit: the same choices on every computer
                bot = make_bot("strong", time_budget=float("inf"))
            else:
                bot = make_bot(name)
            cells = play_deal(bot, deal)
            scores.append(score_grid([list(cells[i:i + 5]) for i in range(0, 25, 5)]).total)
    return totals


def matematiko() -> dict:
    totals = random_grid_totals()
    return {
        "grids": GRIDS, "seed": GRID_SEED,
        "mean": statistics.mean(totals), "stdev": statistics.stdev(totals),
        "histogram": {str(k): v for k, v in sorted(Counter(totals).items())},
        "bots": bot_totals(),
    }


def triple_hits(players: int, count: int = TRIOMINO_DEALS, seed: int | None = None) -> int:
    """In how many of ``count`` seeded deals for ``players`` players somebody gets a triple."""
    from mathgames.triomino import PRESETS, all_tiles

    tiles = all_tiles()
    dealt = players * PRESETS["pressman"].hand_size(players)
    rng = random.Random(TRIOMINO_SEED + players if seed is None else seed)
    return sum(any(tile.kind == "triple" for tile in rng.sample(tiles, dealt))
               for _ in range(count))


def triomino() -> dict:
    return {"deals": TRIOMINO_DEALS, "seed": TRIOMINO_SEED,
            "triple_hits": {str(n): triple_hits(n) for n in range(2, 7)}}


BUILDERS = {"matematiko_probabilities": matematiko, "triomino_combinatorics": triomino}


def write(lessons: list[str] | None = None) -> None:
    DATA.mkdir(exist_ok=True)
    for lesson in lessons or list(BUILDERS):
        data = BUILDERS[lesson]()
        path = DATA / f"{lesson}.json"
        path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        print("wrote", path.relative_to(HERE))


if __name__ == "__main__":
    write(sys.argv[1:] or None)
