"""The precomputed lesson results (notebooks/explore/data) are what the code computes.

``precompute.py`` stores the seeded simulations and bot games that every visitor of a
lesson would otherwise wait for. These tests recompute a part of each, with the same code
and seeds, and compare it with the stored numbers.
"""

from __future__ import annotations

import importlib.util
import json
import statistics
from collections import Counter
from pathlib import Path

EXPLORE = Path(__file__).resolve().parents[2] / "notebooks" / "explore"


def _load_precompute():
    spec = importlib.util.spec_from_file_location("lessons_precompute", EXPLORE / "precompute.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


precompute = _load_precompute()


def stored(lesson: str) -> dict:
    return json.loads((EXPLORE / "data" / f"{lesson}.json").read_text(encoding="utf-8"))


def test_the_random_grid_histogram_is_the_seeded_simulation():
    data = stored("matematiko_probabilities")
    totals = precompute.random_grid_totals()
    assert {str(k): v for k, v in sorted(Counter(totals).items())} == data["histogram"]
    assert statistics.mean(totals) == data["mean"]
    assert data["grids"] == len(totals) == 20_000


def test_the_stored_bot_scores_are_what_the_bots_play():
    data = stored("matematiko_probabilities")
    again = precompute.bot_totals(range(1, 3))   # the first two deals; all 16 take ~20 s
    for name, scores in again.items():
        assert data["bots"][name][:2] == scores
    assert all(len(scores) == 16 for scores in data["bots"].values())


def test_the_stored_triple_counts_are_the_seeded_deals():
    data = stored("triomino_combinatorics")
    for players in (2, 6):
        assert precompute.triple_hits(players) == data["triple_hits"][str(players)]
