"""The ladder of bot levels in every game: each level against the one below, CPU a move.

    .venv/bin/python bench/levels.py            # 200 games a Halma / star rung, 1,000 a
                                                # Triomino rung, 1,000 Matematiko deals
                                                # (about 45 CPU minutes, most of it Halma's
                                                # hard rung at about 40 ms a move)
    .venv/bin/python bench/levels.py --quick    # 10 games a rung, 100 deals (2-3 CPU minutes)
    .venv/bin/python bench/levels.py --only halma star
    .venv/bin/python bench/levels.py --only matematiko --jobs 2   # deals shared by 2 processes

Halma, Chinese checkers (``star``) and Triomino (``pressman``): two-player games
between a level and the level below it, seats alternating (Triomino: each deal is
played twice, once in either seat, to cut the luck of the deal); a shared win counts
half, a game stopped by the move limit counts as a loss for both. Target: the
higher level wins at least 65 %. Triomino plays 1,000 games a rung (they are cheap): its
rates lie near the line, where 200 games' standard error (about 3.4 points) decides
too little. The easy level also plays the random bot, for
scale (no target: in Triomino's pressman rules the random bot may not draw
while a tile fits, so it is a random placer, not a fool).
Matematiko: every level plays the same seeded deals (seeds 1,000,000 + i, as in
``bench/matematiko_bots.py``); target: consecutive levels' means at least 40 apart.

Times are CPU seconds (:func:`time.process_time`) of the higher level's moves, so
the other processes on a shared machine do not count; targets: the default level
(``medium``) at most 50 ms a move, ``hard`` at most 300 ms.
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from matematiko_bots import play as play_deal

from mathgames.core.levels import DEFAULT_LEVEL
from mathgames.halma import bots as halma_bots
from mathgames.halma.game import Game as HalmaGame
from mathgames.matematiko import bots as matematiko_bots
from mathgames.matematiko.deck import shuffled_deck
from mathgames.matematiko.rollouts import kernel_mode
from mathgames.triomino import bots as triomino_bots
from mathgames.triomino.game import Game as TriominoGame

CPU_TARGET_MS = {DEFAULT_LEVEL: 50.0, "hard": 300.0}
#: Games a Triomino rung plays by default (each deal in both seats).
TRIOMINO_GAMES = 1000


class _Timed:
    """Wraps a bot: records the CPU seconds of each ``choose``/``choose_pair``."""

    def __init__(self, bot, times: list[float]) -> None:
        self.bot, self.times = bot, times

    def __getattr__(self, name):
        method = getattr(self.bot, name)
        if name not in ("choose", "choose_pair"):
            return method

        def timed(*args):
            start = time.process_time()
            try:
                return method(*args)
            finally:
                self.times.append(time.process_time() - start)
        return timed


def seated(k: int, top: object, bottom: object) -> tuple[int, list[object]]:
    """Game ``k``'s seats: the level measured moves first in even games, second in odd ones."""
    seat = k % 2
    return seat, [top, bottom] if seat == 0 else [bottom, top]


def halma_rung(board: str, upper: str, lower: str | None, games: int) -> dict:
    """``upper`` level against ``lower`` (None: the random bot) on ``board``."""
    wins, limits, times = 0.0, 0, []
    for k in range(games):
        top = _Timed(halma_bots.LEVELS[upper].make(seed=k), times)
        bottom = (halma_bots.LEVELS[lower].make(seed=10_000 + k) if lower
                  else halma_bots.RandomBot(seed=10_000 + k))
        seat, bots = seated(k, top, bottom)
        game = HalmaGame(board, 2, move_limit=1000)
        while not game.is_over():
            pair = bots[game.to_move].choose_pair(game)
            if pair is None:
                game.play("pass")
            else:
                game.push_unchecked(*pair)
        result = game.result()
        if seat in result.winners:
            wins += 1 / len(result.winners)
        elif not result.winners:
            limits += 1
    return {"wins": wins, "games": games, "limits": limits, "times": times}


def triomino_rung(upper: str, lower: str | None, games: int) -> dict:
    wins, times = 0.0, []
    for k in range(games):
        top = _Timed(triomino_bots.LEVELS[upper].make(seed=k), times)
        bottom = (triomino_bots.LEVELS[lower].make(seed=10_000 + k) if lower
                  else triomino_bots.RandomBot(seed=10_000 + k))
        seat, bots = seated(k, top, bottom)
        game = TriominoGame("pressman", 2, 50_000 + k // 2, history=False)  # each deal twice
        while game.phase != "game_over":
            if game.phase == "round_over":
                game.next_round()
                continue
            game.apply(bots[game.current].choose(game))
        if seat in game.winners:
            wins += 1 / len(game.winners)
    return {"wins": wins, "games": games, "limits": 0, "times": times}


def matematiko_level(level: str, deals: list[list[int]], jobs: int = 1) -> dict:
    """Every deal's score and every card's CPU seconds; ``jobs`` worker processes
    share the deals (each times its own bot's CPU, so the figures do not change)."""
    if jobs > 1:
        chunks = [deals[i::jobs] for i in range(jobs)]
        with multiprocessing.Pool(jobs) as pool:
            parts = pool.starmap(matematiko_level, [(level, chunk) for chunk in chunks])
        order = [i for j in range(jobs) for i in range(j, len(deals), jobs)]
        scores = [0] * len(deals)
        for i, score in zip(order, [s for part in parts for s in part["scores"]], strict=True):
            scores[i] = score
        return {"scores": scores, "times": [t for part in parts for t in part["times"]]}
    bot = matematiko_bots.LEVELS[level].make(seed=0)
    scores, times = [], []
    for deal in deals:
        score, spent = play_deal(bot, deal, time.process_time)
        scores.append(score)
        times.extend(spent)
    return {"scores": scores, "times": times}


def _ms(times: list[float]) -> tuple[float, float, float]:
    ordered = sorted(times)
    return (1000 * statistics.median(ordered), 1000 * ordered[int(0.99 * (len(ordered) - 1))],
            1000 * ordered[-1])


def _cpu_check(level: str, median_ms: float) -> str:
    target = CPU_TARGET_MS.get(level)
    if target is None:
        return ""
    return f"<= {target:.0f} {'ok' if median_ms <= target else 'MISSED'}"


def print_ladder(title: str, levels: list[str], rung, only: list[str] | None = None) -> None:
    print(title)
    header = (f"{'level':7} {'against':7} {'games':>6} {'wins':>7} {'limit':>5} {'rate':>7} "
              f"{'>=65%':>6} {'med ms':>7} {'p99 ms':>7} {'max ms':>7}  cpu target")
    print(header)
    print("-" * len(header))
    below: str | None = None
    for level in levels:
        if only and level not in only:
            below = level
            continue
        r = rung(level, below)
        rate = r["wins"] / r["games"]
        med, p99, top = _ms(r["times"])
        verdict = "-" if below is None else ("ok" if rate >= 0.65 else "MISSED")
        print(f"{level:7} {below or 'random':7} {r['games']:6d} {r['wins']:7.1f} "
              f"{r['limits']:5d} {rate:7.1%} {verdict:>6} "
              f"{med:7.2f} {p99:7.1f} {top:7.1f}  {_cpu_check(level, med)}", flush=True)
        below = level
    print()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10 games a rung, 100 deals")
    parser.add_argument("--games", type=int,
                        help="games a rung (default 200; Triomino 1,000)")
    parser.add_argument("--deals", type=int, help="Matematiko deals (default 1,000)")
    parser.add_argument("--only", nargs="*", default=["halma", "star", "triomino", "matematiko"],
                        choices=["halma", "star", "triomino", "matematiko"])
    parser.add_argument("--jobs", type=int, default=1,
                        help="worker processes sharing the Matematiko deals (default 1)")
    parser.add_argument("--levels", nargs="*", default=None,
                        help="play only these levels' rungs (each against the level below)")
    args = parser.parse_args(argv)
    games = args.games or (10 if args.quick else 200)
    triomino_games = args.games or (10 if args.quick else TRIOMINO_GAMES)
    deals_n = args.deals or (100 if args.quick else 1000)
    print("Bot levels: each level against the one below (CPU time of the higher level's "
          "moves, one core)\n")
    for board in ("halma", "star"):
        if board in args.only:
            name = "Halma" if board == "halma" else "Chinese checkers"
            print_ladder(f"{name} ({board} board), 2 players, {games} games a rung",
                         list(halma_bots.LEVELS),
                         lambda up, low, board=board: halma_rung(board, up, low, games),
                         args.levels)
    if "triomino" in args.only:
        print_ladder(f"Triomino (pressman), 2 players, {triomino_games} games a rung",
                     list(triomino_bots.LEVELS),
                     lambda up, low: triomino_rung(up, low, triomino_games), args.levels)
    if "matematiko" in args.only:
        deals = [shuffled_deck(1_000_000 + i)[:25] for i in range(deals_n)]
        print(f"Matematiko, {deals_n} seeded deals (seeds 1,000,000..{999_999 + deals_n}); "
              f"the expert's imagined games: {kernel_mode()}")
        header = (f"{'level':7} {'mean':>7} {'±se':>5} {'gap':>6} {'>=40':>6} {'med ms':>7} "
                  f"{'p99 ms':>7} {'max ms':>7}  cpu target")
        print(header)
        print("-" * len(header))
        previous = None
        for level in matematiko_bots.LEVELS:
            if args.levels and level not in args.levels:
                continue
            r = matematiko_level(level, deals, args.jobs)
            mean = statistics.mean(r["scores"])
            se = statistics.stdev(r["scores"]) / len(deals) ** 0.5 if len(deals) > 1 else 0.0
            gap = "" if previous is None else f"{mean - previous:6.1f}"
            ok = "" if previous is None else ("ok" if mean - previous >= 40 else "MISSED")
            med, p99, top = _ms(r["times"])
            target = _cpu_check(level, med)
            if level == "expert":
                target = f"<= 50 {'ok' if med <= 50 else 'MISSED'}; mean >= 420 " + (
                    "ok" if mean >= 420 else "MISSED")
            print(f"{level:7} {mean:7.1f} {se:5.1f} {gap:>6} {ok:>6} {med:7.2f} {p99:7.1f} "
                  f"{top:7.1f}  {target}", flush=True)
            previous = mean
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
