"""Benchmark of Halma and Chinese checkers: move generation, bots, crossing solver.

    .venv/bin/python bench/halma.py            # the full run (about 25 minutes)
    .venv/bin/python bench/halma.py --quick    # a small run (about a minute)
    .venv/bin/python bench/halma.py --only 4   # section 4 alone (about a minute)

1. Legal-move generation over recorded mid-game positions of each board
   (1,000 each; 100 with --quick): the engine (full moves with shortest paths,
   and the bots' (from, to) fast path) against the reference breadth-first
   search over sets of cells in bench/halma_reference.py, which also checks
   that both find exactly the same moves (and so do the bitboard and the fast engine).
2. The search bot against the greedy bot, two players, 200 games per board
   (10 with --quick), each side starting half the games.
3. The solitaire-crossing solver: re-finding the stored best crossings with the
   search and settings stored with each (``--only 3`` runs this section alone).
4. Uniformly random playouts (two players, at most 200 plies) per CPU second,
   side by side in one run: the game's own path (``RandomBot`` and
   ``Game.play``), the byte-board generator (``pair_moves``) in a bare loop, the
   bitboard engine (:func:`mathgames.halma.bitboard.random_playout`), the fast
   engine (:mod:`mathgames.halma.fastplay`, compiled by numba when it is
   installed, else its plain-Python kernel: the table says which) and, when
   ``open_spiel`` is importable, OpenSpiel's C++ ``chinese_checkers`` twice:
   driven from Python through its binding (``legal_actions``, ``apply_action``),
   and its random rollouts run inside C++ (``RandomRolloutEvaluator`` under a
   one-simulation ``MCTSBot``). Both are optional bench dependencies
   (``pip install -e ".[bench]"``); the bench says when one is absent. OpenSpiel
   plays with ``max_moves=200``, its cap of 200 turns (it counts each hop of a
   jump chain as an action). Best of 3 interleaved rounds; the fast engine is
   warmed up (compiled, or loaded from numba's cache) before the clock starts.
5. How bot games end (``--only 5``): seeded 6-player and 3-player star games, every
   seat one bot level, under the rule sheet's literal fill rule (before) and the
   default, bounded one (after): how many ended with the winner's pieces all home,
   by the fill rule, or at the move limit, the winner's pieces home at the end, and
   the games won with fewer than 9 pieces home without a real blocker in the camp
   (a piece that has stood there fewer of its owner's turns than the bound, and whose
   owner has not finished). ``--games``
   per level and player count (100 by default; 5 with --quick), ``--levels``,
   ``--jobs`` worker processes:

       .venv/bin/python bench/halma.py --only 5 --levels easy medium --jobs 2
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from halma_reference import reference_moves

from mathgames.halma.bitboard import BitBoard, random_playout
from mathgames.halma.bots import LEVELS, GreedyBot, RandomBot, SearchBot
from mathgames.halma.fastplay import FastEngine, engine_mode
from mathgames.halma.game import Game, pair_moves
from mathgames.halma.solutions import HOW_FOUND, HOW_MET, SOLUTIONS
from mathgames.halma.solver import (
    advance_lower_bound,
    meet_crossing,
    parity_lower_bound,
    solve_crossing,
)

BOARD_PLAYERS = {"halma": (2, 3, 4), "star": (2, 3, 4, 6)}


def record_positions(board: str, count: int, seed: int = 1) -> list[Game]:
    """Mid-game positions from greedy-and-random games with every player count."""
    rng = random.Random(seed)
    positions: list[Game] = []
    game_number = 0
    while len(positions) < count:
        players = BOARD_PLAYERS[board][game_number % len(BOARD_PLAYERS[board])]
        game_number += 1
        game = Game(board, players, move_limit=400)
        bots = [GreedyBot(seed=rng.randrange(10**9)) if rng.random() < 0.8
                else RandomBot(seed=rng.randrange(10**9)) for _ in range(players)]
        keep = set(rng.sample(range(10, 150), 12))
        while not game.is_over() and len(positions) < count:
            if game.ply in keep:
                positions.append(game.copy())
            pair = bots[game.to_move].choose_pair(game)
            if pair is None:
                game.play("pass")
            else:
                game.push_unchecked(*pair)
    return positions


def reference_input(game: Game) -> tuple:
    topo = game.topology
    position = {topo.coords[c]: p for p in range(game.players) for c in game.cells[p]}
    target = {topo.coords[c] for c in game.targets[game.to_move]}
    return set(topo.coords), list(topo.directions), position, game.to_move, target


def bench_movegen(board: str, count: int, rounds: int = 7) -> dict[str, float]:
    positions = record_positions(board, count)
    inputs = [reference_input(g) for g in positions]
    # correctness: the same (from, to) pairs and the same shortest jump counts
    for game, args in zip(positions, inputs, strict=True):
        ref = reference_moves(*args)
        topo = game.topology
        mine = {}
        for move in game.legal_moves():
            a, b = topo.index(move.start), topo.index(move.end)
            mine[(topo.coords[a], topo.coords[b])] = (
                0 if b in topo.neighbours[a] else len(move.path) - 1)
        assert mine == ref, f"engine and reference differ:\n{game.position_text()}"
        assert set(BitBoard.of(board).pair_moves_of_game(game)) == set(game.pair_moves())
        assert set(FastEngine.of(board, game.players).pair_moves(game)) == set(
            game.pair_moves())
    moves = sum(len(g.pair_moves()) for g in positions)
    bb = BitBoard.of(board)
    bit_inputs = [(bb.mask(c for cells in g.cells for c in cells), g.cells[g.to_move],
                   bb.mask(g.targets[g.to_move])) for g in positions]
    runs = {
        "reference": lambda: [reference_moves(*args) for args in inputs],
        "engine legal_moves": lambda: [g.legal_moves() for g in positions],
        "engine pair_moves": lambda: [g.pair_moves() for g in positions],
        "bitboard pair_moves": lambda: [bb.pair_moves(*args) for args in bit_inputs],
    }
    best = dict.fromkeys(runs, float("inf"))
    for _round in range(rounds):  # interleaved, so a busy moment hurts every contender
        for name, run in runs.items():
            best[name] = min(best[name], _timed(run))
    timings = {name: len(positions) / seconds for name, seconds in best.items()}
    timings["moves per position"] = moves / len(positions)
    return timings


def _timed(run) -> float:
    """Seconds for one run, with the garbage collector off (as ``timeit`` does)."""
    gc.collect()
    gc.disable()
    try:
        start = time.perf_counter()
        run()
        return time.perf_counter() - start
    finally:
        gc.enable()


def bench_bots(board: str, games: int, budget: float) -> dict[str, float]:
    wins = losses = shared = limits = 0
    lengths, think = [], []
    for k in range(games):
        search = SearchBot(time_budget=budget, seed=k)
        greedy = GreedyBot(seed=10_000 + k)
        bots = [search, greedy] if k % 2 == 0 else [greedy, search]
        me = 0 if k % 2 == 0 else 1
        game = Game(board, 2, move_limit=1000)
        while not game.is_over():
            bot = bots[game.to_move]
            start = time.process_time()  # CPU time, as the bot's budget
            pair = bot.choose_pair(game)
            if bot is search:
                think.append(time.process_time() - start)
            if pair is None:
                game.play("pass")
            else:
                game.push_unchecked(*pair)
        result = game.result()
        lengths.append(game.ply)
        if result.reason == "move_limit":
            limits += 1
        elif result.reason == "shared":
            shared += 1
        elif result.winners == (me,):
            wins += 1
        else:
            losses += 1
    return {"games": games, "wins": wins, "losses": losses, "shared": shared,
            "limit": limits, "rate": wins / games, "plies": statistics.mean(lengths),
            "think": statistics.mean(think)}


def game_playout(board: str, rng: random.Random, turns: int = 200) -> int:
    """A random game through the game's own API: RandomBot and the checked Game.play."""
    game = Game(board, 2, move_limit=turns)
    bot = RandomBot(seed=rng.randrange(10**9))
    while not game.is_over():
        game.play(bot.choose(game))
    return game.ply


def byte_playout(board: str, rng: random.Random, turns: int = 200) -> int:
    """A random game with the byte-board generator in a bare loop (no checks, no paths)."""
    game = Game(board, 2)
    occ, cells, topo, masks = bytearray(game.occ), [list(c) for c in game.cells], \
        game.topology, game.target_masks
    targets = game.targets
    for ply in range(turns):
        p = ply % 2
        pairs = pair_moves(occ, cells[p], topo, masks[p])
        if not pairs:
            continue
        a, b = rng.choice(pairs)
        occ[a], occ[b] = 0, p + 1
        cells[p][cells[p].index(a)] = b
        if all(occ[c] for c in targets[p]) and any(occ[c] == p + 1 for c in targets[p]):
            return ply + 1
    return turns


def openspiel_playouts(count: int, rng: random.Random, turns: int = 200):
    """OpenSpiel's C++ chinese_checkers (2 players) driven from Python: a function playing
    ``count`` random games of at most ``turns`` turns, or None if OpenSpiel is absent."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("chinese_checkers", {"max_moves": turns})

    def run() -> int:
        actions = 0
        for _ in range(count):
            state = game.new_initial_state()
            while not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
                actions += 1
        return actions
    return run


def openspiel_cpp_rollouts(count: int, seed: int, turns: int = 200):
    """OpenSpiel's random rollouts inside C++: one ``MCTSBot`` simulation whose leaf is
    the start, valued by ``count`` rollouts of ``RandomRolloutEvaluator``; None if
    OpenSpiel (or this API of it) is absent."""
    try:
        import pyspiel
        game = pyspiel.load_game("chinese_checkers", {"max_moves": turns})
        evaluator = pyspiel.RandomRolloutEvaluator(count, seed)
        bot = pyspiel.MCTSBot(game, evaluator, 2.0, 1, 1000, False, seed, False)
    except (ImportError, AttributeError, TypeError):
        return None

    def run() -> None:
        bot.step(game.new_initial_state())
    return run


SPIEL = "OpenSpiel C++, driven from Python"
SPIEL_CPP = "OpenSpiel C++, rollouts in C++"


def bench_playouts(quick: bool) -> None:
    count = 20 if quick else 200
    rng = random.Random(2026)
    engine = FastEngine.of("star", 2)
    fast = f"fast engine ({'numba' if engine.jit else 'pure Python'})"
    start = time.process_time()
    engine.plies(1)  # compiles the kernel, or loads it from numba's cache
    warm_up = time.process_time() - start
    fast_count = count * (25 if engine.jit else 1)
    seeds = iter(range(1, 10**6))
    contenders = {
        "game API (RandomBot + Game.play)": (max(count // 10, 2),
                                             lambda n: sum(game_playout("star", rng)
                                                           for _ in range(n))),
        "byte-board pair_moves, bare loop": (count, lambda n: sum(byte_playout("star", rng)
                                                                   for _ in range(n))),
        "bitboard engine (random_playout)": (count, lambda n: sum(
            random_playout("star", 2, 200, rng=rng).plies for _ in range(n))),
        fast: (fast_count, lambda n: engine.plies(n, 200, seed=next(seeds))),
    }
    spiel = openspiel_playouts(count * 10, rng)
    if spiel is not None:
        contenders[SPIEL] = (count * 10, lambda n: spiel())
    spiel_cpp = openspiel_cpp_rollouts(count * 25, seed=2026)
    if spiel_cpp is not None:
        contenders[SPIEL_CPP] = (count * 25, lambda n: spiel_cpp())
    best: dict[str, tuple[float, float | None]] = {}
    for _round in range(3):
        for name, (n, run) in contenders.items():
            start = time.process_time()
            plies = run(n)
            seconds = time.process_time() - start
            rate = n / seconds
            if rate > best.get(name, (0.0, None))[0]:
                best[name] = (rate, None if plies is None else plies / seconds)
    references = [name for name in (SPIEL, SPIEL_CPP) if name in best]
    print((f"{'contender (star, 2 players)':34} {'playouts/s':>10} {'plies/s':>9} "
           + " ".join(f"{'vs ' + ('Python-driven' if r == SPIEL else 'C++ rollouts'):>16}"
                      for r in references)).rstrip())
    for name, (rate, plies) in best.items():
        shares = " ".join(f"{rate / best[r][0]:16.1%}" for r in references)
        shown = f"{plies:9.0f}" if plies is not None else f"{'-':>9}"
        print(f"{name:34} {rate:10.1f} {shown} {shares}")
    print(f"   fast engine: {engine_mode(engine.jit)}; warmed up before the clock started "
          f"({warm_up:.2f} s of CPU: compiling or loading numba's cache, unless an earlier "
          "section did)")
    print("   plies/s: turns for ours; actions for OpenSpiel (each hop of a jump chain is one)")
    if spiel is None:
        print("   OpenSpiel is not installed (optional: .venv/bin/pip install -e \".[bench]\"): "
              "its rows are missing")
    elif spiel_cpp is None:
        print("   OpenSpiel's MCTSBot / RandomRolloutEvaluator binding is missing: "
              "no C++-rollout row")
    if references:
        ours = best[fast][0]
        verdict = ", ".join(
            f"{ours / best[r][0]:.1%} of {r} ({'ok' if ours >= best[r][0] / 2 else 'MISSED'})"
            for r in references)
        print(f"   target, at least half of OpenSpiel's playouts/s: {verdict}")


def bench_crossings(quick: bool) -> None:
    """Section 3: re-find the stored best crossings with their stored settings."""
    print("3. Solitaire crossing (beam search), re-finding the stored best crossings")
    print(f"{'crossing':10} {'search':>7} {'width':>6} {'found':>6} {'stored':>7} {'parity':>6} "
          f"{'advance':>7} {'cpu s':>7}")
    keys = ["star-10"] if quick else list(SOLUTIONS)
    for key in keys:
        board, pieces = key.split("-")
        cpu = time.process_time()
        if key in HOW_MET:
            settings = HOW_MET[key]
            found = meet_crossing(board, int(pieces), **settings)
            search, width = "meet", int(settings["width"])
        else:
            width, lateral, compact = HOW_FOUND[key]
            found = solve_crossing(board, int(pieces), width=width, lateral=lateral,
                                   compact=compact)
            search = "beam"
        length = len(found) if found else 0
        cpu = time.process_time() - cpu
        print(f"{key:10} {search:>7} {width:6d} {length:6d} {len(SOLUTIONS[key]):7d} "
              f"{parity_lower_bound(board, int(pieces)):6d} "
              f"{advance_lower_bound(board, int(pieces)):7d} {cpu:7.1f}")
    print("   star-10: 27 moves is the proven minimum (Bell 2009); 'parity' and 'advance' are our")
    print("   lower bounds (mathgames.halma.solver); stored records: "
          + ", ".join(f"{k} {len(v)}" for k, v in SOLUTIONS.items()))
    print("   search: 'beam' solve_crossing, 'meet' meet_crossing (the second half is a path from")
    print("   the start turned round and played backwards); cpu s: CPU seconds of the search")


ENDING_LIMIT = 3000  # plies: a bot game that goes on this long is a draw


def ending_game(rule: str, level: str, players: int, seed: int) -> dict:
    """One seeded star game between bots of ``level`` under the fill ``rule``: how it ended.

    ``kind``: "all home" (every winner has all its pieces home), "fill rule" or
    "move limit" (a draw: the limit or every player blocked); ``home``: the fewest
    pieces home among the winners; ``genuine``: False when a winner finished by the fill
    rule while a piece of another player in its camp had stood there for fewer of its
    owner's turns than the bound (``Game.fill_bound``) and its owner had not finished.
    """
    game = Game("star", players, move_limit=ENDING_LIMIT, fill_rule=rule)
    bots = [LEVELS[level].make(seed * 10 + p) for p in range(players)]
    genuine = True
    while not game.is_over():
        before = len(game.finished)
        pair = bots[game.to_move].choose_pair(game)
        if pair is None:
            game.play("pass")
        else:
            game.push_unchecked(*pair)
        if len(game.finished) > before:
            p = game.history[-1][0]
            if game.pieces_home(p) < game.pieces:
                genuine = genuine and all(
                    game.occ[c] == p + 1 or game.occ[c] - 1 in game.finished
                    or game.stayed(c) >= game.fill_bound for c in game.targets[p])
    result = game.result()
    if not result.winners:
        return {"kind": "move limit", "home": None, "genuine": True, "plies": game.ply}
    home = min(game.pieces_home(w) for w in result.winners)
    return {"kind": "all home" if home == game.pieces else "fill rule", "home": home,
            "genuine": genuine, "plies": game.ply}


def _ending_task(task: tuple[str, str, int, int]) -> dict:
    return ending_game(*task)


def bench_endings(levels: list[str], games: int, jobs: int) -> None:
    """Section 5: how seeded bot games end, under the literal and the bounded fill rule."""
    print(f"5. How bot games end on the star, {games} seeded games per level and player count "
          f"(seeds 0-{games - 1}), literal fill rule (before) and bounded (after, the default)")
    print(f"{'rule':8} {'level':7} {'players':>7} {'games':>5} {'all home':>8} {'fill rule':>9} "
          f"{'limit':>5} {'winner home: min':>16} {'mean':>5} {'<9 home':>7} "
          f"{'<9, no blocker':>14} {'plies':>6}")
    for level in levels:  # one level at a time, so that a long run shows its rows as it goes
        tasks = [(rule, level, players, seed) for players in (6, 3)
                 for rule in ("literal", "bounded") for seed in range(games)]
        if jobs > 1:
            with ProcessPoolExecutor(jobs) as pool:
                outcomes = list(pool.map(_ending_task, tasks, chunksize=1))
        else:
            outcomes = [_ending_task(task) for task in tasks]
        rows: dict[tuple[str, int], list[dict]] = {}
        for (rule, _level, players, _seed), outcome in zip(tasks, outcomes, strict=True):
            rows.setdefault((rule, players), []).append(outcome)
        for players in (6, 3):
            for rule in ("literal", "bounded"):
                done = rows[(rule, players)]
                kinds = [d["kind"] for d in done]
                homes = [d["home"] for d in done if d["home"] is not None]
                few = [d for d in done if d["home"] is not None and d["home"] < 9]
                print(f"{rule:8} {level:7} {players:7d} {len(done):5d} "
                      f"{kinds.count('all home'):8d} {kinds.count('fill rule'):9d} "
                      f"{kinds.count('move limit'):5d} "
                      f"{min(homes) if homes else '-':>16} "
                      f"{statistics.mean(homes) if homes else 0:5.2f} {len(few):7d} "
                      f"{sum(1 for d in few if not d['genuine']):14d} "
                      f"{statistics.mean(d['plies'] for d in done):6.0f}", flush=True)
    bound = Game("star", 6).fill_bound
    print(f"   bounded: another player's piece fills a camp only once its owner has finished or "
          f"it has stood there {bound} of its owner's turns;")
    print("   <9, no blocker: won with fewer than 9 of 10 pieces home while a piece in the camp "
          "was not a blocker's (by that test);")
    print(f"   limit: a draw at {ENDING_LIMIT} plies or when every player was blocked; "
          "plies: mean game length")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a small run")
    parser.add_argument("--budget", type=float, default=0.05,
                        help="the search bot's seconds per move (default 0.05)")
    parser.add_argument("--only", type=int, choices=[3, 4, 5],
                        help="run only this section (3: the crossings, 4: the random playouts, "
                             "5: how bot games end)")
    parser.add_argument("--games", type=int,
                        help="section 5: games per level and player count (default 100)")
    parser.add_argument("--levels", nargs="+", choices=list(LEVELS), default=list(LEVELS),
                        help="section 5: the bot levels (default: all)")
    parser.add_argument("--jobs", type=int, default=1,
                        help="section 5: worker processes (default 1)")
    args = parser.parse_args()
    endings = args.games or (5 if args.quick else 100)
    if args.only == 5:
        bench_endings(args.levels, endings, args.jobs)
        return
    if args.only == 3:
        bench_crossings(args.quick)
        return
    if args.only == 4:
        print("4. Random playouts (uniform over legal moves, at most 200 plies), CPU time, "
              "best of 3 interleaved rounds")
        bench_playouts(args.quick)
        return
    count = 100 if args.quick else 1000
    games = 10 if args.quick else 200

    print(f"1. Legal-move generation, {count} recorded mid-game positions per board "
          "(positions per second, best of 7 interleaved rounds)")
    print(f"{'board':8} {'moves/pos':>9} {'reference':>10} {'legal_moves':>12} {'speed-up':>9} "
          f"{'pair_moves':>11} {'speed-up':>9} {'bitboard':>9} {'speed-up':>9}")
    for board in ("halma", "star"):
        t = bench_movegen(board, count)
        ref = t["reference"]
        print(f"{board:8} {t['moves per position']:9.1f} {ref:10.0f} "
              f"{t['engine legal_moves']:12.0f} {t['engine legal_moves'] / ref:8.1f}x "
              f"{t['engine pair_moves']:11.0f} {t['engine pair_moves'] / ref:8.1f}x "
              f"{t['bitboard pair_moves']:9.0f} {t['bitboard pair_moves'] / ref:8.1f}x")
    print("   (the engine, the bitboard engine, the fast engine and the reference found the "
          "same moves in every position)")
    print()
    print(f"2. Search bot ({args.budget} s a move) against the greedy bot, 2 players, "
          f"{games} games per board")
    print(f"{'board':8} {'wins':>5} {'losses':>6} {'shared':>6} {'limit':>5} {'win rate':>9} "
          f"{'plies':>6} {'s/move':>7}")
    for board in ("halma", "star"):
        r = bench_bots(board, games, args.budget)
        print(f"{board:8} {r['wins']:5d} {r['losses']:6d} {r['shared']:6d} {r['limit']:5d} "
              f"{r['rate']:8.1%} {r['plies']:6.0f} {r['think']:7.3f}")
    print("   (s/move: CPU seconds, the clock the search bot's budget is read on)")
    print()
    bench_crossings(args.quick)
    print()
    print("4. Random playouts (uniform over legal moves, at most 200 plies), CPU time, "
          "best of 3 interleaved rounds")
    bench_playouts(args.quick)
    print()
    bench_endings(args.levels, endings, args.jobs)


if __name__ == "__main__":
    main()
