"""Triomino benchmark: bot strength, game speed and hint time.

    .venv/bin/python bench/triomino.py            # the full run (1,000 games)
    .venv/bin/python bench/triomino.py --quick    # a small run

Prints a plain-text table:
- the planner bot's win rate against greedy over seeded two-player ``pressman`` games
  (each deal played twice, the planner in either seat; a shared win counts half;
  target >= 75 %, issue 17), and its CPU time per move (:func:`time.process_time`,
  so the other processes on a shared machine do not count);
- games per second for four greedy bots (``pressman``);
- the median time to list every legal placement of a 9-tile hand on a 40-tile table
  (target <= 5 ms).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from mathgames.triomino.bots import GreedyBot, PlannerBot
from mathgames.triomino.game import Game
from mathgames.triomino.table import Table
from mathgames.triomino.tiles import all_tiles


def play(game: Game, bots: list) -> Game:
    while game.phase != "game_over":
        if game.phase == "round_over":
            game.next_round()
            continue
        game.apply(bots[game.current].choose(game))
    return game


class Timed:
    """Wraps a bot: the CPU seconds of each of its moves go to ``times``."""

    def __init__(self, bot, times: list[float]) -> None:
        self.bot, self.times = bot, times

    def choose(self, game: Game):
        start = time.process_time()
        try:
            return self.bot.choose(game)
        finally:
            self.times.append(time.process_time() - start)


def win_rate(games: int) -> tuple[float, float, list[float]]:
    """The planner's share of wins over ``games`` games (deal ``k // 2``, seat ``k % 2``),
    the CPU seconds of the whole run, and the CPU seconds of each planner move."""
    wins, times = 0.0, []
    start = time.process_time()
    for k in range(games):
        deal, planner_seat = k // 2, k % 2
        bots = [GreedyBot(), GreedyBot()]
        bots[planner_seat] = Timed(PlannerBot(seed=deal), times)
        game = play(Game("pressman", 2, deal, history=False), bots)
        if planner_seat in game.winners:
            wins += 1 / len(game.winners)
    return wins / games, time.process_time() - start, times


def greedy_speed(games: int) -> float:
    start = time.perf_counter()
    for seed in range(games):
        play(Game("pressman", 4, 10_000 + seed, history=False), [GreedyBot()] * 4)
    return games / (time.perf_counter() - start)


def random_table(rng: random.Random, size: int) -> tuple[Table, list]:
    """A table of ``size`` tiles grown by random legal placements, and the tiles left."""
    while True:
        tiles = all_tiles()
        rng.shuffle(tiles)
        table = Table()
        while len(table) < size:
            options = table.placements_for(tiles)
            if not options:
                break
            choice = rng.choice(options)
            table.place(choice)
            tiles.remove(choice.tile)
        if len(table) == size:
            return table, tiles


def hint_times(samples: int) -> float:
    rng = random.Random(2026)
    times = []
    for _ in range(samples):
        table, rest = random_table(rng, 40)
        hand = rng.sample(rest, 9)
        best = float("inf")
        for _ in range(5):
            start = time.perf_counter()
            table.placements_for(hand)
            best = min(best, time.perf_counter() - start)
        times.append(best)
    return statistics.median(times) * 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a small run")
    parser.add_argument("--games", type=int, help="planner-vs-greedy games")
    args = parser.parse_args(argv)
    games = args.games or (100 if args.quick else 1000)
    speed_games = 20 if args.quick else 200
    samples = 20 if args.quick else 200
    rate, seconds, times = win_rate(games)
    times.sort()
    median_ms = 1000 * statistics.median(times)
    p99_ms = 1000 * times[int(0.99 * (len(times) - 1))]
    speed = greedy_speed(speed_games)
    hint = hint_times(samples)
    rows = [
        ("measure", "value", "target"),
        (f"planner vs greedy win rate ({games} pressman games)", f"{rate:.1%}", ">= 75%"),
        ("  CPU time for those games (both bots)", f"{seconds:.1f} s", ""),
        ("  planner CPU per move: median / 99th percentile",
         f"{median_ms:.2f} / {p99_ms:.1f} ms", ""),
        (f"games/s, four greedy bots ({speed_games} games)", f"{speed:.1f}", ""),
        (f"median hint time, 9 tiles on 40 ({samples} tables)", f"{hint:.2f} ms", "<= 5 ms"),
    ]
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    for i, row in enumerate(rows):
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
        if i == 0:
            print("  ".join("-" * w for w in widths))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
