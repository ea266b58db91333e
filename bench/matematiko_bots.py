"""Matematiko bots on the same seeded deals: score statistics and time per card.

    .venv/bin/python bench/matematiko_bots.py            # 1,000 deals (15-20 min on 2 cores)
    .venv/bin/python bench/matematiko_bots.py --quick    # 100 deals (about 2 minutes)
    .venv/bin/python bench/matematiko_bots.py --deals 300 --bots strong
    .venv/bin/python bench/matematiko_bots.py --bots --levels expert --deals 300 \
        --seed-base 5000000 --save base.json          # tuning deals, per-deal scores kept
    .venv/bin/python bench/matematiko_bots.py ... --against base.json  # paired differences

Deal ``i`` is the first 25 cards of the documented shuffle (SplitMix64 +
Fisher-Yates, :mod:`mathgames.matematiko.deck`) from seed ``1_000_000 + i``,
so every bot plays exactly the same numbers. The random bot checks the harness:
its mean must come near the exact expectation of a randomly filled grid.

Tuning belongs on other seeds (``--seed-base``, e.g. 5,000,000): ``--save`` keeps
every deal's score by bot, and ``--against`` prints each bot's mean difference from
the saved scores of the same name on the same deals with its standard error (paired:
the luck of the deals cancels, so a few hundred deals tell variants apart).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mathgames.matematiko.bots import BOTS, LEVELS, make_bot
from mathgames.matematiko.deck import shuffled_deck
from mathgames.matematiko.odds import expected_random_score
from mathgames.matematiko.rules import score_grid

SEED_BASE = 1_000_000


def play(bot, deal, clock=time.perf_counter):
    """The score of the grid a bot fills, and the seconds (by ``clock``) of its 25 decisions."""
    grid = [None] * 25
    times = []
    for k, card in enumerate(deal):
        start = clock()
        cell = bot.choose(list(grid), card, tuple(deal[: k + 1]))
        times.append(clock() - start)
        if grid[cell] is not None:
            raise RuntimeError(f"{bot!r} chose the taken cell {cell}")
        grid[cell] = card
    return score_grid([grid[r * 5:r * 5 + 5] for r in range(5)]).total, times


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100 deals instead of 1,000")
    parser.add_argument("--deals", type=int, default=None, help="number of deals")
    parser.add_argument("--bots", nargs="*", default=list(BOTS), choices=list(BOTS))
    parser.add_argument("--levels", nargs="*", default=[], choices=list(LEVELS),
                        help="also play these levels (seed 0), e.g. expert")
    parser.add_argument("--seed-base", type=int, default=SEED_BASE,
                        help=f"deal i is seed SEED_BASE + i (default {SEED_BASE:,})")
    parser.add_argument("--save", help="write every deal's score by bot to this JSON file")
    parser.add_argument("--against", help="a --save file: paired differences from its scores")
    args = parser.parse_args(argv)
    n = args.deals or (100 if args.quick else 1000)
    base = args.seed_base
    deals = [shuffled_deck(base + i)[:25] for i in range(n)]
    exact = float(expected_random_score())
    print(f"Matematiko bots: {n} seeded deals (seeds {base}..{base + n - 1}); "
          f"exact expectation of a random grid {exact:.2f}")
    against = {}
    if args.against:
        with open(args.against, encoding="utf-8") as file:
            against = json.load(file)
    saved = {}
    header = (f"{'bot':<8} {'mean':>7} {'±se':>5} {'median':>7} {'stdev':>6} {'min':>5} "
              f"{'max':>5} {'ms/card':>8} {'p99 ms':>7} {'max ms':>7}")
    print(header)
    print("-" * len(header))
    players = [(name, make_bot(name, **({"seed": 0} if name == "random" else {})))
               for name in args.bots]
    players += [(name, LEVELS[name].make(seed=0)) for name in args.levels]
    for name, bot in players:
        scores, times = [], []
        for deal in deals:
            score, spent = play(bot, deal)
            scores.append(score)
            times.extend(spent)
        sd = statistics.stdev(scores) if n > 1 else 0.0
        p99 = sorted(times)[int(0.99 * (len(times) - 1))]
        print(f"{name:<8} {statistics.mean(scores):7.1f} {sd / n ** 0.5:5.1f} "
              f"{statistics.median(scores):7.1f} {sd:6.1f} {min(scores):5d} {max(scores):5d} "
              f"{1000 * statistics.mean(times):8.2f} {1000 * p99:7.1f} {1000 * max(times):7.1f}",
              flush=True)
        saved[name] = scores
        if name in against and len(against[name]) >= n > 1:
            diffs = [a - b for a, b in zip(scores, against[name], strict=False)]
            se = statistics.stdev(diffs) / n ** 0.5
            print(f"{'':<8} {statistics.mean(diffs):+7.1f} {se:5.1f}"
                  f"  (paired difference from {args.against}, same deals)", flush=True)
    if args.save:
        with open(args.save, "w", encoding="utf-8") as file:
            json.dump(saved, file)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
