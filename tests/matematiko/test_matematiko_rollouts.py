"""The expert's imagined games to the end: the compiled kernel, its Python form, the reference."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from mathgames.core.levels import TickingClock
from mathgames.matematiko import bots as bots_module
from mathgames.matematiko import rollouts
from mathgames.matematiko.bots import LEVELS, ExpertBot, StrongBot, _best_cell, _tails
from mathgames.matematiko.deck import shuffled_deck
from mathgames.matematiko.lines import CELL_LINES, full_line_points, grid_points, line_contents
from mathgames.matematiko.odds import unseen_counts
from mathgames.matematiko.rollouts import PlayOuts, Tables
from mathgames.matematiko.weights import EXPERT_WEIGHTS

needs_numba = pytest.mark.skipif(rollouts.compiled() is None, reason="numba is not installed")


def reference(bot: StrongBot, grid, card: int, cell: int, counts, numbers,
              after: int = 0, share: float = 0.0) -> float:
    """One imagined game written with the bot's own Python evaluation: ``card`` in
    ``cell``, then each number where the evaluation with the odds left on that path
    likes it best; the full grid's exact score, or with a ``share`` that score
    blended with the grid's value ``after`` numbers on (full lines' exact points,
    the others' value with the odds left on that path), written out here."""
    path = list(grid)
    path[cell] = card
    lines = line_contents(path)
    left = list(counts)
    weights = [bot.diagonal if line >= 10 else 1.0 for line in range(12)]
    midway = None
    for k, number in enumerate(numbers):
        left[number] -= 1
        draws = len(numbers) - 1 - k
        value = bot._valuer(_tails(left, draws), draws=draws)
        chosen = _best_cell(path, lines, number, value, weights)
        path[chosen] = number
        for line in CELL_LINES[chosen]:
            lines[line] = tuple(sorted((*lines[line], number)))
        if k + 1 == after and draws > 0:
            midway = sum(full_line_points(content)[line >= 10] if len(content) == 5
                         else value(content) * weights[line]
                         for line, content in enumerate(lines))
    score = grid_points(lines)
    if share and midway is not None:
        return (1 - share) * score + share * midway
    return score


def positions(deals: int, numbers: int):
    """(grid, card, called) along games of the quick bot."""
    bot = StrongBot(candidates=1, weights=EXPERT_WEIGHTS)
    for seed in range(deals):
        deal = shuffled_deck(900 + seed)[:25]
        grid: list[int | None] = [None] * 25
        for k, card in enumerate(deal[:numbers]):
            called = tuple(deal[: k + 1])
            yield list(grid), card, called
            grid[bot.choose(list(grid), card, called)] = card


@pytest.mark.parametrize("weights", [EXPERT_WEIGHTS, None], ids=["learned", "plain"])
@pytest.mark.parametrize("jit", [pytest.param(True, marks=needs_numba), False],
                         ids=["compiled", "python"])
def test_imagined_games_are_the_evaluations_own(weights, jit):
    # every imagined game ends with the very grid the Python evaluation would fill
    bot = StrongBot(candidates=1, weights=weights, diagonal=1.1)
    tables = Tables.of(bot)
    dice = random.Random(4)
    checked = 0
    for grid, card, called in positions(2 if jit else 1, 21):
        counts = unseen_counts(called)
        unseen = [v for v in range(1, 14) for _ in range(counts[v])]
        cells = [c for c in range(25) if grid[c] is None][:: 5 if jit else 9]
        numbers = dice.sample(unseen, 25 - len(called))
        runs = PlayOuts(tables, grid, line_contents(grid), counts, cells, card, bot.diagonal,
                        jit=jit)
        runs(numbers)
        runs(numbers)  # the totals add up
        assert list(runs.totals) == [2 * reference(bot, grid, card, cell, counts, numbers)
                                     for cell in cells]
        checked += 1
    assert checked >= 21


@pytest.mark.parametrize("jit", [pytest.param(True, marks=needs_numba), False],
                         ids=["compiled", "python"])
def test_imagined_games_blend_the_exact_score_with_the_value_midway(jit):
    # each game counts (1 - share) x its exact score + share x its grid's value `after`
    # numbers on; games with `after` numbers or fewer to come count their exact score
    bot = StrongBot(candidates=1, weights=EXPERT_WEIGHTS, diagonal=1.1)
    tables = Tables.of(bot)
    dice = random.Random(5)
    blended = 0
    for grid, card, called in list(positions(2 if jit else 1, 24))[:: 2 if jit else 4]:
        counts = unseen_counts(called)
        unseen = [v for v in range(1, 14) for _ in range(counts[v])]
        cells = [c for c in range(25) if grid[c] is None][:: 4 if jit else 7]
        numbers = dice.sample(unseen, 25 - len(called))
        runs = PlayOuts(tables, grid, line_contents(grid), counts, cells, card, bot.diagonal,
                        jit=jit, after=5, share=0.3)
        runs(numbers)
        want = [reference(bot, grid, card, cell, counts, numbers, after=5, share=0.3)
                for cell in cells]
        assert list(runs.totals) == pytest.approx(want, rel=1e-12)
        exact = [reference(bot, grid, card, cell, counts, numbers) for cell in cells]
        blended += want != exact
        if len(numbers) <= 5:
            assert list(runs.totals) == exact
    assert blended >= 5


def test_tables_are_built_once_for_the_same_knobs():
    first = Tables.of(StrongBot(weights=EXPERT_WEIGHTS))
    assert Tables.of(ExpertBot(weights=EXPERT_WEIGHTS)) is first
    assert Tables.of(StrongBot()) is not first
    # a line's cards and its index agree both ways
    assert first.index[(3, 3, 7)] == first.add[first.index[(3, 3)], 7]
    assert int(first.points[first.index[(2, 2, 2, 2, 9)], 0]) == 160


def by_hand(bot: ExpertBot, grid, card: int, called) -> int:
    """The expert's choice before the late game, written out with :func:`reference`:
    its candidates, its seeded imagined games, the best total (first cell on a tie)."""
    counts = unseen_counts(called)
    plain = StrongBot(candidates=1, weights=EXPERT_WEIGHTS)
    value = plain._valuer(_tails(counts, 25 - len(called)))
    gains = sorted(((gain, c) for gain, c in plain._gains(grid, line_contents(grid), card,
                                                          value)), key=lambda t: (-t[0], t[1]))
    cells = [c for _gain, c in gains[: bot.candidates]]
    dice = random.Random(f"{bot.seed}:{','.join(map(str, called))}")
    unseen = [v for v in range(1, 14) for _ in range(counts[v])]
    totals = [0.0] * len(cells)
    for _ in range(bot.samples):
        numbers = dice.sample(unseen, 25 - len(called))
        for i, c in enumerate(cells):
            totals[i] += reference(bot, grid, card, c, counts, numbers, after=bot.value_after,
                                   share=bot.value_share)
    return cells[max(range(len(cells)), key=lambda i: (totals[i], -i))]


def test_the_expert_plays_whole_imagined_games_and_is_reproducible():
    grid, card, called = list(positions(1, 18))[17]  # 7 numbers to come: not yet the late game
    bot = ExpertBot(clock=lambda: 0.0, seed=5, weights=EXPERT_WEIGHTS)
    assert 25 - len(called) > bot.endgame
    assert bot.horizon is None
    cell = bot.choose(grid, card, called)
    assert grid[cell] is None
    assert cell == ExpertBot(clock=lambda: 0.0, seed=5, weights=EXPERT_WEIGHTS).choose(
        grid, card, called)
    # the same rounds by hand: the cell with the best total over the same games
    assert cell == by_hand(bot, grid, card, called)
    assert (bot.value_after, bot.value_share) == (5, 0.5)


def test_the_expert_blends_its_imagined_games_as_it_says():
    # find a position where the blend changes the expert's cell, and check that cell
    # by hand: the best total of (1 - share) x exact score + share x the value midway
    def expert(share: float) -> ExpertBot:
        return ExpertBot(clock=lambda: 0.0, seed=2, samples=8, weights=EXPERT_WEIGHTS,
                         value_share=share)

    for grid, card, called in positions(3, 14):
        cell = expert(0.5).choose(grid, card, called)
        if cell != expert(0.0).choose(grid, card, called):
            break
    else:
        pytest.fail("the blend changed no choice in 42 positions")
    assert cell == by_hand(expert(0.5), grid, card, called)


def test_the_blend_is_checked():
    with pytest.raises(ValueError, match=r"value_share must be between 0 and 1, not 1\.5"):
        ExpertBot(value_share=1.5)
    with pytest.raises(ValueError, match="value_after must be at least 1 number, not 0"):
        ExpertBot(value_after=0)
    assert ExpertBot(value_after=0, value_share=0.0).value_share == 0.0


def test_a_contest_needs_a_horizon():
    with pytest.raises(ValueError, match="contest=1 or a horizon"):
        ExpertBot(contest=0.8)
    assert ExpertBot(contest=0.8, horizon=5).horizon == 5


def test_warming_up_reads_no_clock_and_the_moves_keep_their_rounds():
    # the tables and the compiled code are ready before the clock is read: a
    # frozen clock is read once to start, once before the search and once a round
    grid, card, called = list(positions(1, 2))[1]
    for samples in (1, 5):
        clock = TickingClock(0.0)
        ExpertBot(clock=clock, samples=samples, weights=EXPERT_WEIGHTS).choose(grid, card, called)
        assert clock.readings == 1 + 1 + samples


def test_without_numba_the_level_plays_the_short_runs(monkeypatch):
    monkeypatch.setattr(bots_module, "compiled", lambda: None)
    bot = LEVELS["expert"].make(seed=1, clock=lambda: 0.0)
    assert (bot.samples, bot.horizon) == (24, 5)
    if rollouts.compiled() is not None:
        monkeypatch.undo()
        bot = LEVELS["expert"].make(seed=1, clock=lambda: 0.0)
        assert (bot.samples, bot.horizon) == (128, None)


def test_the_panel_describes_the_expert_it_would_play(monkeypatch):
    # with numba the compiled games' figures; without it the Python runs' figures,
    # for teachers and, rounded, for students
    expert = LEVELS["expert"]
    monkeypatch.setattr(bots_module, "installed", lambda: True)
    assert "423 points" in expert.measured and "20.5 ms" in expert.measured
    assert "about 420 points" in expert.description
    monkeypatch.setattr(bots_module, "installed", lambda: False)
    assert "412 points" in expert.measured and "15.0 ms" in expert.measured
    assert "about 410 points" in expert.description


def test_only_the_expert_loads_numpy_and_numba():
    # game pages stay light: the set-up panel and the quick levels load neither; the
    # expert's first number loads numpy (and numba, where it is installed)
    code = ("import sys\n"
            "from mathgames.matematiko.bots import LEVELS\n"
            "heavy = lambda: sorted({'numba', 'numpy'} & set(sys.modules))\n"
            "words = [level.description for level in LEVELS.values()]\n"
            "LEVELS['hard'].make().choose([None] * 25, 7, (7,))\n"
            "print(heavy())\n"
            "LEVELS['expert'].make(clock=lambda: 0.0).choose([None] * 25, 7, (7,))\n"
            "print(heavy())\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, cwd=Path(__file__).resolve().parents[2], timeout=300)
    quick, expert = done.stdout.splitlines()
    assert quick == "[]"
    assert expert == str(["numba", "numpy"] if rollouts.compiled() is not None else ["numpy"])


def test_kernel_mode_says_how_the_games_run():
    mode = rollouts.kernel_mode()
    if rollouts.compiled() is None:
        assert mode == "pure Python (numba is not installed)"
    else:
        import numba

        assert mode == f"compiled by numba {numba.__version__}"


def test_the_imagined_games_never_import_the_bots():
    # one dependency direction: the bots import the kernel, and what both need (the
    # lines through a cell, a full line's points, the stages, the odds of the cards
    # to come) lives in matematiko/lines.py; a docstring's example may use a bot
    import ast

    source = Path(rollouts.__file__).read_text(encoding="utf-8")
    imported = {node.module for node in ast.walk(ast.parse(source))
                if isinstance(node, ast.ImportFrom)}
    imported |= {alias.name for node in ast.walk(ast.parse(source))
                 if isinstance(node, ast.Import) for alias in node.names}
    assert "mathgames.matematiko.lines" in imported
    assert not {name for name in imported if name and name.startswith("mathgames.matematiko.bots")}
