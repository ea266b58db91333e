"""Fit the Matematiko expert's learned target weights from simulated games.

    .venv/bin/python bench/matematiko_fit.py            # fit and compare (about 5 minutes, 2 cores)
    .venv/bin/python bench/matematiko_fit.py --write    # ... and rewrite the shipped table

The strong evaluation values a line as the sum of its scoring targets' points times
their odds (:class:`mathgames.matematiko.bots.StrongBot`). Here each target's share
of a grid's value is a feature, keyed by the target's points and the cards it still
needs, and a ridge regression per stage of the game (4 numbers placed a stage)
fits a weight to each feature so that the grid's value predicts the score the game
really ends with. The ridge pulls every weight towards 1 (the plain evaluation),
so a feature the games never show keeps weight 1.

Two rounds, on deals of seeds 7,000,000 + i (neither the bench's nor the tuning
deals): round 1 plays 10,000 games with the quick bot (``StrongBot(candidates=1)``)
and fits; round 2 plays 20,000 games with the quick bot weighted halfway towards
round 1's weights and fits again. Each round fits on the first 80 % of its games and
prints, per stage, the root mean square error of the final score predicted on the
other 20 %: the plain evaluation (rescaled by least squares) against the fitted one.
Round 2's weights are :data:`mathgames.matematiko.weights.STAGE_WEIGHTS`;
``--write`` rewrites that module, otherwise the bench prints how far the fit is from it.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mathgames.matematiko.bots import _DIAGONAL_WEIGHT, CELLS, StrongBot, _tails, _targets
from mathgames.matematiko.deck import shuffled_deck
from mathgames.matematiko.lines import STAGES, line_contents, stage_of
from mathgames.matematiko.odds import unseen_counts
from mathgames.matematiko.rules import score_grid
from mathgames.matematiko.weights import POINTS, STAGE_WEIGHTS

ROOT = Path(__file__).resolve().parent.parent
SEED_BASE = 7_000_000
NEEDED = 6  # a target needs 0 to 5 cards
FEATURES = len(POINTS) * NEEDED
RIDGE = 1e5
MODULE = ROOT / "mathgames" / "matematiko" / "weights.py"


#: Each kind of target's first feature: its points' place in ``POINTS`` times ``NEEDED``.
_FIRST = {points: i * NEEDED for i, points in enumerate(POINTS)}


def line_features(content: tuple[int, ...], tails: list[list[float]], factor: float = 0.55,
                  ) -> np.ndarray:
    """Each (points, cards needed) feature's share of one line's plain value: a target's
    share goes to its points' first feature (``_FIRST``) plus the cards it needs."""
    x = np.zeros(FEATURES)
    miss = 1.0
    for points, needed, need in _targets(content):
        p = factor ** needed
        for v, m in need:
            p *= tails[v][m]
        x[_FIRST[points] + needed] += points * p * miss
        miss *= 1.0 - p
        if miss < 1e-4:
            break
    return x


def features(grid: list[int | None], called: tuple[int, ...], factor: float = 0.55,
             diagonal: float = _DIAGONAL_WEIGHT) -> np.ndarray:
    """Each (points, cards needed) feature's share of the plain evaluation of ``grid``."""
    tails = _tails(unseen_counts(called), CELLS - len(called))
    return sum((line_features(content, tails, factor) * (diagonal if line >= 10 else 1.0)
                for line, content in enumerate(line_contents(grid))), np.zeros(FEATURES))


def _game(args: tuple[int, tuple | None]) -> tuple[list[np.ndarray], int]:
    """The features after each of the first 24 placements of one game, and its score."""
    seed, weights = args
    bot = StrongBot(candidates=1, weights=weights)
    deal = shuffled_deck(SEED_BASE + seed)[:25]
    grid: list[int | None] = [None] * CELLS
    xs = []
    for k, card in enumerate(deal):
        grid[bot.choose(list(grid), card, tuple(deal[: k + 1]))] = card
        if k < CELLS - 1:
            xs.append(features(grid, tuple(deal[: k + 1])))
    return xs, score_grid([grid[r * 5:r * 5 + 5] for r in range(5)]).total


def fit(games: int, weights: tuple | None, jobs: int) -> tuple:
    """Play ``games`` games, fit the weights per stage, print the held-out errors."""
    with multiprocessing.Pool(jobs) as pool:
        results = pool.map(_game, [(seed, weights) for seed in range(games)], chunksize=20)
    x = np.array([xs for xs, _score in results])  # games x 24 placements x features
    y = np.array([score for _xs, score in results], dtype=float)
    train = np.arange(games) < 0.8 * games
    stages = []
    print(f"{'numbers placed':>15} {'plain rmse':>11} {'fitted rmse':>12}")
    for stage in range(STAGES):
        moves = [k for k in range(CELLS - 1) if stage_of(CELLS - 1 - k) == stage]
        xs = x[:, moves, :].reshape(-1, FEATURES)
        ys = np.repeat(y, len(moves))
        fit_rows = np.repeat(train, len(moves))
        test_rows = ~fit_rows
        plain = xs.sum(axis=1)
        a = np.c_[np.ones(fit_rows.sum()), plain[fit_rows]]
        scale = np.linalg.lstsq(a, ys[fit_rows], rcond=None)[0]
        plain_error = scale[0] + scale[1] * plain[test_rows] - ys[test_rows]
        z = np.c_[np.ones(fit_rows.sum()), xs[fit_rows]]
        ridge = RIDGE * np.eye(FEATURES + 1)
        ridge[0, 0] = 0.0  # the intercept is free
        prior = np.r_[0.0, np.ones(FEATURES)]
        w = np.linalg.solve(z.T @ z + ridge, z.T @ ys[fit_rows] + ridge @ prior)
        fitted_error = w[0] + xs[test_rows] @ w[1:] - ys[test_rows]
        print(f"{moves[0] + 1:>7}-{moves[-1] + 1:<7} {np.sqrt((plain_error ** 2).mean()):>11.1f} "
              f"{np.sqrt((fitted_error ** 2).mean()):>12.1f}")
        stages.append(stage_table(w[1:]))
    print(f"mean score of the games played: {y.mean():.1f}")
    return tuple(stages)


def stage_table(w: np.ndarray) -> dict[int, tuple[float, ...]]:
    """One stage's weights from a flat vector (by points, then cards needed), to 4 places."""
    return {points: tuple(round(float(v), 4) for v in w[i:i + NEEDED])
            for points, i in _FIRST.items()}


def flat(stage: dict[int, tuple[float, ...]]) -> np.ndarray:
    """One stage's weights as a flat vector: by points, then by cards needed."""
    return np.array([stage[points][needed] for points in POINTS for needed in range(NEEDED)])


def halfway(weights: tuple) -> tuple:
    """The weights moved halfway back towards 1."""
    return tuple({p: tuple(round(1 + (v - 1) / 2, 4) for v in row) for p, row in stage.items()}
                 for stage in weights)


def replace_table(text: str, name: str, weights: tuple) -> str:
    """``text`` (the weights module) with the table called ``name`` rewritten as ``weights``;
    the rest of the module, the other table included, stays as it is."""
    head = f"{name}: tuple[dict[int, tuple[float, ...]], ...] = ("
    start = text.index(head) + len(head)
    end = text.index("\n)\n", start)
    rows = []
    for stage in weights:
        rows.append("    {\n" + "".join(
            f"        {p}: ({', '.join(f'{v:.4f}' for v in row)}),\n" for p, row in stage.items())
            + "    },")
    return text[:start] + "\n" + "\n".join(rows) + text[end:]


def compare_or_write(name: str, weights: tuple, shipped: tuple, write: bool) -> None:
    """Print how far fitted ``weights`` are from the ``shipped`` table called ``name``,
    and with ``write`` rewrite that table in the weights module."""
    largest = max(abs(v - w) for got, ship in zip(weights, shipped, strict=True)
                  for p in POINTS for v, w in zip(got[p], ship[p], strict=True))
    print(f"largest difference from the shipped weights: {largest:.4f}")
    if write:
        MODULE.write_text(replace_table(MODULE.read_text(), name, weights))
        print(f"wrote {MODULE.relative_to(ROOT)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs=2, default=[10_000, 20_000],
                        help="games of round 1 and round 2")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--write", action="store_true",
                        help="rewrite mathgames/matematiko/weights.py")
    args = parser.parse_args(argv)
    print(f"round 1: {args.games[0]:,} games of the quick bot")
    first = fit(args.games[0], None, args.jobs)
    print(f"round 2: {args.games[1]:,} games of the quick bot weighted halfway to round 1's fit")
    second = fit(args.games[1], halfway(first), args.jobs)
    compare_or_write("STAGE_WEIGHTS", second, STAGE_WEIGHTS, args.write)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
