"""Teach the quick evaluation the Matematiko expert's choices (policy distillation).

    .venv/bin/python bench/matematiko_distil.py            # play, fit, compare (8 min, 2 cores)
    .venv/bin/python bench/matematiko_distil.py --write    # ... and rewrite the shipped table

The expert (:class:`mathgames.matematiko.bots.ExpertBot` with the learned
``STAGE_WEIGHTS``, its clock frozen so that every search runs in full) plays 1,200
games on deals of seeds 9,000,000 + i (neither the bench's, the tuning nor the
fit's deals), and every choice it makes before its exact expectimax (the last two
numbers) is kept: the grid, the number and the cell it chose.

The quick evaluation puts a number in the cell whose lines gain the most, and a
cell's gain is a sum of features, each target's share of its lines' values keyed by
the target's points and the cards it still needs (the features of
``bench/matematiko_fit.py``), times that kind of target's weight. Per stage of the
game (4 numbers placed a stage), a conditional logit fits those weights so that
the chance it gives each empty cell, ``exp(beta * gain)`` over the sum for every
empty cell, makes the expert's choices likely, with a pull of ``--pull`` (times the
squared distance) towards ``STAGE_WEIGHTS``; ``beta``, a temperature, is free. It
prints, per stage, how often the quick evaluation's best cell is the expert's on the
last 20 % of the games, held out of the fit: with the learned weights and with the
distilled ones.

The distilled weights are :data:`mathgames.matematiko.weights.EXPERT_WEIGHTS`, which
the expert level plays. ``--write`` rewrites that table, otherwise the bench prints
how far the fit is from it. The fit needs SciPy (the bench extra:
``.venv/bin/pip install -e ".[bench]"``).
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from matematiko_fit import FEATURES, compare_or_write, flat, line_features, stage_table

from mathgames.matematiko.bots import _DIAGONAL_WEIGHT, CELLS, ExpertBot, _placement_gains, _tails
from mathgames.matematiko.deck import shuffled_deck
from mathgames.matematiko.lines import STAGES, line_contents, stage_of
from mathgames.matematiko.odds import unseen_counts
from mathgames.matematiko.weights import EXPERT_WEIGHTS, STAGE_WEIGHTS

SEED_BASE = 9_000_000
PULL = 30.0

#: One choice of the expert: the grid before it, the number, the numbers called, the cell.
Choice = tuple[tuple[int | None, ...], int, tuple[int, ...], int]


def _game(seed: int) -> list[Choice]:
    """The expert's choices in one game, but for the last two numbers' exact expectimax
    (the expert's search when these weights were taught: 24 imagined runs of 5 numbers)."""
    bot = ExpertBot(seed=seed, weights=STAGE_WEIGHTS, clock=lambda: 0.0, samples=24, horizon=5)
    deal = shuffled_deck(SEED_BASE + seed)[:25]
    grid: list[int | None] = [None] * CELLS
    choices = []
    for k, card in enumerate(deal):
        called = tuple(deal[: k + 1])
        cell = bot.choose(list(grid), card, called)
        if CELLS - len(called) > bot.exact:
            choices.append((tuple(grid), card, called, cell))
        grid[cell] = card
    return choices


def gain_features(grid: tuple[int | None, ...], card: int, called: tuple[int, ...],
                  ) -> tuple[np.ndarray, np.ndarray]:
    """The features of each cell's gain when ``card`` goes there (25 x features, zero
    for a full cell) and which cells are empty: with one stage's weights as a flat
    vector ``w`` (points, then cards needed), the quick evaluation's gain of cell
    ``c`` is ``features[c] @ w``. The cells' gains are summed over their lines as
    the bot sums them (:func:`_placement_gains`), with feature vectors for numbers."""
    tails = _tails(unseen_counts(called), CELLS - len(called))
    found: dict[tuple[int, ...], np.ndarray] = {}

    def features(content: tuple[int, ...]) -> np.ndarray:
        if content not in found:
            found[content] = line_features(content, tails)
        return found[content]

    def change(before: tuple[int, ...], after: tuple[int, ...], diagonal: bool) -> np.ndarray:
        return (features(after) - features(before)) * (_DIAGONAL_WEIGHT if diagonal else 1.0)

    rows = np.zeros((CELLS, FEATURES))
    for gain, cell in _placement_gains(grid, line_contents(grid), card, change):
        rows[cell] = gain
    return rows, np.array([cell is None for cell in grid])


def _loss(theta: np.ndarray, x: np.ndarray, empty: np.ndarray, chosen: np.ndarray,
          prior: np.ndarray, pull: float) -> tuple[float, np.ndarray]:
    """The choices' negative log-likelihood plus the pull, and its gradient."""
    beta, w = theta[0], theta[1:]
    gain = x @ w
    s = np.where(empty, beta * gain, -1e9)
    top = s.max(axis=1, keepdims=True)
    e = np.exp(s - top) * empty
    total = e.sum(axis=1)
    rows = np.arange(len(s))
    loglik = s[rows, chosen] - top[:, 0] - np.log(total)
    d = -e / total[:, None]
    d[rows, chosen] += 1.0  # d loglik / d s
    grad_beta = (d * gain).sum()
    grad_w = beta * np.einsum("nc,ncf->f", d, x)
    loss = -loglik.sum() + pull * ((w - prior) ** 2).sum()
    return loss, np.r_[-grad_beta, -grad_w + 2 * pull * (w - prior)]


def agreement(x: np.ndarray, empty: np.ndarray, chosen: np.ndarray, w: np.ndarray) -> float:
    """How often the best cell by ``x @ w`` (the first on ties) is the chosen one."""
    gain = np.where(empty, x @ w, -np.inf)
    return float((gain.argmax(axis=1) == chosen).mean())


def fit(games: int, jobs: int, pull: float = PULL) -> tuple:
    """Play ``games`` games of the expert, fit the weights per stage, print agreement."""
    from scipy.optimize import minimize  # the bench extra brings SciPy

    with multiprocessing.Pool(jobs) as pool:
        played = pool.map(_game, range(games), chunksize=10)
    train_games = int(0.8 * games)
    per_stage: list[list[tuple[np.ndarray, np.ndarray, int, bool]]] = [[] for _ in range(STAGES)]
    for seed, choices in enumerate(played):
        for grid, card, called, cell in choices:
            rows, empty = gain_features(grid, card, called)
            per_stage[stage_of(CELLS - len(called))].append((rows, empty, cell, seed < train_games))
    stages = []
    print(f"{'numbers placed':>15} {'choices':>8} {'learned agree':>14} {'distilled agree':>16}")
    for stage, items in enumerate(per_stage):
        x = np.array([i[0] for i in items])
        empty = np.array([i[1] for i in items])
        chosen = np.array([i[2] for i in items])
        train = np.array([i[3] for i in items])
        prior = flat(STAGE_WEIGHTS[stage])
        data = (x[train], empty[train], chosen[train], prior, pull)
        beta = min((0.03, 0.1, 0.3, 1.0, 3.0), key=lambda b: _loss(np.r_[b, prior], *data)[0])
        result = minimize(_loss, np.r_[beta, prior], args=data, jac=True, method="L-BFGS-B",
                          options={"maxiter": 500})
        w = result.x[1:]
        test = ~train
        moves = [k + 1 for k in range(CELLS - 1) if stage_of(CELLS - 1 - k) == stage]
        print(f"{moves[0]:>7}-{moves[-1]:<7} {len(items):>8} "
              f"{agreement(x[test], empty[test], chosen[test], prior):>14.3f} "
              f"{agreement(x[test], empty[test], chosen[test], w):>16.3f}")
        stages.append(stage_table(w))
    return tuple(stages)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1200)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--pull", type=float, default=PULL)
    parser.add_argument("--write", action="store_true",
                        help="rewrite EXPERT_WEIGHTS in mathgames/matematiko/weights.py")
    args = parser.parse_args(argv)
    print(f"{args.games:,} games of the expert (frozen clock), distilled into the quick evaluation")
    weights = fit(args.games, args.jobs, args.pull)
    compare_or_write("EXPERT_WEIGHTS", weights, EXPERT_WEIGHTS, args.write)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
