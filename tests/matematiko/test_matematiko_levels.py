"""Matematiko bot levels: the registry, legal cells, no peeking, a budget on an injected clock."""

from __future__ import annotations

import sys
from html import escape

import pytest

from mathgames.core.i18n import format_number
from mathgames.core.levels import LEVEL_NAMES, TickingClock
from mathgames.matematiko.bots import (
    CELLS,
    LEVELS,
    MISTAKES,
    ExpertBot,
    StrongBot,
    _best_cell,
    _tails,
    play_deal,
)
from mathgames.matematiko.deck import shuffled_deck
from mathgames.matematiko.lines import line_contents
from mathgames.matematiko.odds import unseen_counts
from mathgames.matematiko.weights import EXPERT_WEIGHTS, STAGE_WEIGHTS


def frozen() -> float:
    return 0.0


def test_the_registry_offers_every_level_weakest_first_with_measured_words():
    assert list(LEVELS) == list(LEVEL_NAMES)
    for name, level in LEVELS.items():
        assert level.name == name
        text = level.measured  # for teachers
        assert f"{round(level.figures['mean'])} points" in text
        assert f"{format_number(level.figures['ms'], 1)} ms" in text  # as Babel rounds
        # for students: the mean to the nearest ten, the slips as one number in so many
        words = level.description
        assert f"Scores about {round(level.figures['mean'], -1):.0f} points a game." in words
        assert " ms" not in words
        if name in MISTAKES:
            assert f"1 in {round(1 / MISTAKES[name])}" in words.replace("number in", "in")


@pytest.mark.parametrize("name", LEVEL_NAMES)
def test_every_level_fills_a_grid_with_legal_cells(name):
    for seed in range(2):
        deal = shuffled_deck(7_000 + seed)[:25]
        grid = play_deal(LEVELS[name].make(seed=seed, clock=frozen), deal)  # raises if illegal
        assert sorted(grid) == sorted(deal)


@pytest.mark.parametrize("name", LEVEL_NAMES)
def test_a_bot_never_sees_the_numbers_still_to_come(name):
    # two deals with the same first ten numbers and different futures: the same ten moves
    first = shuffled_deck(11)
    rest = [c for c in shuffled_deck(12) if c not in first[:10]]
    deals = [first[:25], first[:10] + rest[:15]]
    assert deals[0][10:] != deals[1][10:]
    moves = []
    for deal in deals:
        bot = LEVELS[name].make(seed=3, clock=frozen)
        grid: list[int | None] = [None] * 25
        cells = []
        for k, card in enumerate(deal[:10]):
            cell = bot.choose(list(grid), card, tuple(deal[: k + 1]))
            grid[cell] = card
            cells.append(cell)
        moves.append(cells)
    assert moves[0] == moves[1]


def positions(count: int):
    """Mid-game positions of the hard bot (grid, card, called)."""
    found = []
    for seed in range(count):
        deal = shuffled_deck(500 + seed)[:25]
        bot = LEVELS["hard"].make(clock=frozen)
        grid: list[int | None] = [None] * 25
        for k, card in enumerate(deal[:14]):
            if k in (4, 9, 13):
                found.append((list(grid), card, tuple(deal[: k + 1])))
            grid[bot.choose(list(grid), card, tuple(deal[: k + 1]))] = card
    return found


@pytest.mark.parametrize("name", ["expert"])  # the one level with a lookahead and a budget
def test_the_time_budget_is_read_on_the_given_clock(name):
    # the evaluation the expert level plays, with its learned weights
    plain = StrongBot(candidates=1, weights=EXPERT_WEIGHTS)
    differs = 0
    for grid, card, called in positions(6):
        # a clock on which every reading is a second later: the budget is gone at
        # once, so only the evaluation's own choice is examined
        clock = TickingClock(1.0)
        hurried = LEVELS[name].make(clock=clock).choose(grid, card, called)
        assert hurried == plain.choose(grid, card, called)
        assert clock.readings <= 4
        # a clock that never moves: the lookahead runs in full and sometimes disagrees
        differs += LEVELS[name].make(clock=frozen).choose(grid, card, called) != hurried
    assert differs >= 1


def test_the_budget_stops_the_search_at_the_deadline():
    # each reading 5 ms later: the expert level's 45 ms allow about 9 readings
    grid, card, called = positions(1)[0]
    clock = TickingClock(0.005)
    bot = LEVELS["expert"].make(clock=clock)
    bot.choose(grid, card, called)
    assert clock.readings >= 3
    assert (clock.readings - 1) * clock.step <= bot.time_budget + 2 * clock.step


@pytest.mark.parametrize("name", ["easy", "medium", "hard"])
def test_the_quick_levels_look_once_at_the_clock(name):
    # no lookahead, so nothing to cut short: the choice is the same on any clock
    for grid, card, called in positions(2):
        clock = TickingClock(1.0)
        assert (LEVELS[name].make(seed=1, clock=clock).choose(grid, card, called)
                == LEVELS[name].make(seed=1, clock=frozen).choose(grid, card, called))
        assert clock.readings <= 1


def test_the_set_up_panel_offers_every_level_and_describes_each():
    from mathgames.matematiko.widget import MatematikoApp

    app = MatematikoApp(code="BQT234", bots=("expert", "strong"))
    assert list(app.bot_checks) == list(LEVELS)
    assert app.bot_checks["expert"].value and app.bot_checks["hard"].value  # strong -> hard
    words, figures = app.level_help.value.split("<details")
    for level in LEVELS.values():
        assert escape(level.description) in words and escape(level.measured) in figures
    app.start_button.click()
    assert app.match.names == ["Player 1", "hard bot", "expert bot"]


@pytest.mark.parametrize("late", [False, True], ids=["middle game", "late game"])
def test_the_expert_plays_its_samples_in_rounds_on_the_clock(late: bool):
    # a frozen clock: one reading to start, one before the search, one per round
    grid, card, called = late_positions(1, 5)[0] if late else positions(2)[1]
    option = "endgame_samples" if late else "samples"
    readings = []
    for samples in (1, 7):
        clock = TickingClock(0.0)
        ExpertBot(clock=clock, **{option: samples}).choose(grid, card, called)
        readings.append(clock.readings)
    assert readings == [1 + 1 + 1, 1 + 1 + 7]


def test_the_expert_is_reproducible_and_falls_back_to_the_evaluation():
    plain = StrongBot(candidates=1)
    for grid, card, called in positions(3):
        bot = ExpertBot(clock=frozen, seed=5)
        cell = bot.choose(grid, card, called)
        assert cell == ExpertBot(clock=frozen, seed=5).choose(grid, card, called)
        assert grid[cell] is None
        # without samples or with one candidate: the evaluation's own choice
        for lazy in (ExpertBot(samples=0), ExpertBot(candidates=1)):
            assert lazy.choose(grid, card, called) == plain.choose(grid, card, called)


def test_the_expert_places_imagined_numbers_as_the_evaluation_does():
    # the fast per-line placement used in the samples equals the reference gains
    bot = StrongBot(candidates=1)
    for grid, card, called in positions(4):
        counts = unseen_counts(called)
        value = bot._valuer(_tails(counts, CELLS - len(called)))
        contents = line_contents(grid)
        gains = bot._gains(grid, contents, card, value)
        best = max(gain for gain, _cell in gains)
        first = next(cell for gain, cell in gains if gain == best)
        assert _best_cell(grid, contents, card, value) == first


def test_level_descriptions_write_numbers_in_the_visitors_format() -> None:
    from mathgames.core.i18n import set_language
    from mathgames.matematiko.bots import LEVELS

    previous = set_language("cs")
    try:
        czech = LEVELS["expert"].measured
    finally:
        set_language(previous)
    english = LEVELS["expert"].measured
    assert "1\xa0000" in czech and "1,000" not in czech  # Czech groups thousands with a space
    assert "1,000" in english
    ms = LEVELS["expert"].figures["ms"]
    assert f"{ms:.1f}".replace(".", ",") in czech  # and writes a decimal comma


def late_positions(count: int, empty: int):
    """Positions of the hard bot with ``empty`` + 1 empty cells (grid, card, called)."""
    found = []
    for seed in range(count):
        deal = shuffled_deck(800 + seed)[:25]
        bot = LEVELS["hard"].make(clock=frozen)
        grid: list[int | None] = [None] * 25
        for k, card in enumerate(deal):
            if k == 24 - empty:
                found.append((list(grid), card, tuple(deal[: k + 1])))
                break
            grid[bot.choose(list(grid), card, tuple(deal[: k + 1]))] = card
    return found


def _score(grid) -> int:
    from mathgames.matematiko.rules import score_grid

    return score_grid([grid[r * 5:r * 5 + 5] for r in range(5)]).total


def test_the_exact_grid_score_agrees_with_the_rules():
    from mathgames.matematiko.lines import grid_points

    for seed in range(40):
        grid = shuffled_deck(300 + seed)[:25]
        assert grid_points(line_contents(grid)) == _score(grid)


def _brute_expectation(grid, called) -> float:
    """Expectimax over every unseen card (each copy once) with the rules' scores."""
    empty = [i for i in range(CELLS) if grid[i] is None]
    if not empty:
        return _score(grid)
    counts = unseen_counts(called)
    deck = [v for v in range(1, 14) for _ in range(counts[v])]
    total = 0.0
    for v in deck:
        best = float("-inf")
        for cell in empty:
            after = list(grid)
            after[cell] = v
            best = max(best, _brute_expectation(after, (*called, v)))
        total += best
    return total / len(deck)


def test_the_exact_endgame_plays_the_best_expectation():
    from mathgames.matematiko.bots import _exact_choice

    for empty in (1, 2):
        for grid, card, called in late_positions(3, empty):
            values = {}
            for cell in (i for i in range(CELLS) if grid[i] is None):
                after = list(grid)
                after[cell] = card
                values[cell] = _brute_expectation(after, called)
            chosen = _exact_choice(grid, card, unseen_counts(called))
            assert values[chosen] == pytest.approx(max(values.values()))
            # the expert level plays it, whatever its clock says
            hurried = LEVELS["expert"].make(clock=TickingClock(1.0))
            assert hurried.choose(grid, card, called) == chosen


def test_the_late_game_rolls_to_the_end_within_the_budget():
    plain = StrongBot(candidates=1)
    differs = 0
    for empty in (3, 4, 6):
        for grid, card, called in late_positions(4, empty):
            assert CELLS - len(called) <= ExpertBot().endgame  # the late game's search
            cell = ExpertBot(clock=frozen, seed=2).choose(grid, card, called)
            assert grid[cell] is None
            assert cell == ExpertBot(clock=frozen, seed=2).choose(grid, card, called)
            # no time at all: the evaluation's own choice
            clock = TickingClock(1.0)
            assert ExpertBot(clock=clock).choose(grid, card, called) == plain.choose(
                grid, card, called)
            assert clock.readings <= 4
            # 5 ms a reading: the search stops at the budget
            clock = TickingClock(0.005)
            ExpertBot(clock=clock).choose(grid, card, called)
            assert (clock.readings - 1) * clock.step <= ExpertBot().time_budget + 2 * clock.step
            differs += cell != plain.choose(grid, card, called)
    assert differs >= 1


def _flat_weights(stage: int, weight: float) -> tuple[dict[int, tuple[float, ...]], ...]:
    from mathgames.matematiko.lines import STAGES
    from mathgames.matematiko.weights import POINTS

    return tuple({p: (weight if s == stage else 1.0,) * 6 for p in POINTS} for s in range(STAGES))


@pytest.mark.parametrize("draws", [24, 17, 9, 2])
def test_learned_weights_scale_the_targets_of_their_stage_only(draws: int):
    from mathgames.matematiko.lines import STAGES, stage_of

    called = shuffled_deck(11)[: CELLS - draws]
    tails = _tails(unseen_counts(called), draws)
    plain = StrongBot()._valuer(tails, draws=draws)
    doubled = StrongBot(weights=_flat_weights(stage_of(draws), 2.0))._valuer(tails, draws=draws)
    other = StrongBot(weights=_flat_weights((stage_of(draws) + 1) % STAGES, 2.0))._valuer(tails,
                                                                                    draws=draws)
    unstaged = StrongBot(weights=_flat_weights(stage_of(draws), 2.0))._valuer(tails)
    for content in [(), (7,), (7, 7), (3, 9, 10), (1, 10, 12, 13), (5, 5, 5, 8)]:
        assert doubled(content) == pytest.approx(2 * plain(content))
        assert other(content) == plain(content) == unstaged(content)


def test_the_expert_level_plays_the_shipped_learned_weights():
    from mathgames.matematiko.lines import STAGES
    from mathgames.matematiko.weights import POINTS

    for table in (STAGE_WEIGHTS, EXPERT_WEIGHTS):
        assert len(table) == STAGES
        for stage in table:
            assert sorted(stage) == list(POINTS)
            assert all(len(row) == 6 and all(v == v for v in row) for row in stage.values())
    assert EXPERT_WEIGHTS != STAGE_WEIGHTS  # distilled, not a copy
    assert LEVELS["expert"].make(clock=frozen).weights is EXPERT_WEIGHTS
    assert StrongBot().weights is None and LEVELS["hard"].make(clock=frozen).bot.weights is None


def _bench(name: str):
    import importlib.util
    from pathlib import Path

    bench = Path(__file__).resolve().parents[2] / "bench"
    sys.path.insert(0, str(bench))  # the distillation reuses the fit's helpers
    try:
        spec = importlib.util.spec_from_file_location(name, bench / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(bench))
    return module


def test_the_fitted_features_add_up_to_the_plain_evaluation():
    # bench/matematiko_fit.py regresses final scores on these shares: with every
    # weight 1 they must give back the evaluation the quick bot plays
    fit = _bench("matematiko_fit")
    deal = shuffled_deck(21)[:25]
    bot = StrongBot(candidates=1)
    grid: list[int | None] = [None] * CELLS
    for k in range(18):
        called = tuple(deal[: k + 1])
        grid[bot.choose(list(grid), deal[k], called)] = deal[k]
        value = bot._valuer(_tails(unseen_counts(called), CELLS - len(called)))
        plain = sum(value(c) * (1.1 if line >= 10 else 1.0)
                    for line, c in enumerate(line_contents(grid)))
        assert sum(fit.features(grid, called)) == pytest.approx(plain)


def test_the_distilled_features_give_the_quick_evaluations_gains():
    # bench/matematiko_distil.py fits weights so that the quick evaluation's best
    # cell is the expert's: its features times a stage's weights must be the very
    # gains the bot ranks its cells by, for either table
    from mathgames.matematiko.lines import stage_of

    distil = _bench("matematiko_distil")
    deal = shuffled_deck(33)[:25]
    for table in (STAGE_WEIGHTS, EXPERT_WEIGHTS):
        bot = StrongBot(candidates=1, weights=table)
        grid: list[int | None] = [None] * CELLS
        for k in range(20):
            called = tuple(deal[: k + 1])
            rows, empty = distil.gain_features(tuple(grid), deal[k], called)
            _counts, draws, _scales, gains = bot._ranked(grid, deal[k], called)
            w = distil.flat(table[stage_of(draws)])
            assert sorted(c for c in range(CELLS) if empty[c]) == sorted(c for _g, c in gains)
            for gain, cell in gains:
                assert rows[cell] @ w == pytest.approx(gain, abs=1e-9)
            if len(gains) > 1 and gains[0][0] > gains[1][0] + 1e-6:  # one best cell
                assert distil.agreement(rows[None], empty[None], [gains[0][1]], w) == 1.0
                assert distil.agreement(rows[None], empty[None], [gains[1][1]], w) == 0.0
            grid[gains[0][1]] = deal[k]


def test_rewriting_one_weights_table_keeps_the_other():
    fit = _bench("matematiko_fit")
    # the fits flatten a stage's weights and write them back by points, then cards needed
    assert all(fit.stage_table(fit.flat(stage)) == stage for stage in EXPERT_WEIGHTS)
    text = fit.MODULE.read_text()
    assert fit.replace_table(text, "STAGE_WEIGHTS", STAGE_WEIGHTS) == text
    halved = tuple({p: tuple(round(v / 2, 4) for v in row) for p, row in stage.items()}
                   for stage in EXPERT_WEIGHTS)
    changed = fit.replace_table(text, "EXPERT_WEIGHTS", halved)
    namespace: dict = {}
    exec(compile(changed, "weights.py", "exec"), namespace)
    assert namespace["STAGE_WEIGHTS"] == STAGE_WEIGHTS
    assert namespace["EXPERT_WEIGHTS"] == halved
