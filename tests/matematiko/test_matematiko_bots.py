"""Bots: always legal, and better than chance."""

from __future__ import annotations

import statistics

from hypothesis import given, settings
from hypothesis import strategies as st

from mathgames.matematiko.bots import BOTS, GreedyBot, RandomBot, StrongBot, make_bot, play_deal
from mathgames.matematiko.deck import shuffled_deck
from mathgames.matematiko.rules import DECK, score_grid


def _total(grid):
    return score_grid([grid[r * 5:r * 5 + 5] for r in range(5)]).total


@settings(max_examples=15, deadline=None)
@given(st.permutations(DECK), st.sampled_from(sorted(BOTS)))
def test_no_bot_ever_makes_an_illegal_move(deck, name):
    deal = list(deck[:25])
    grid = play_deal(make_bot(name), deal)  # play_deal raises on an illegal cell
    assert sorted(grid) == sorted(deal)


def test_bots_choose_only_empty_cells_of_a_crowded_grid():
    grid = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, None, 11]
    called = [c for c in grid if c is not None] + [12]
    for bot in (RandomBot(0), GreedyBot(), StrongBot()):
        assert bot.choose(grid, 12, called) == 23


def test_greedy_and_strong_beat_random_on_the_same_deals():
    deals = [shuffled_deck(seed)[:25] for seed in range(12)]
    means = {bot.name: statistics.mean(_total(play_deal(bot, d)) for d in deals)
             for bot in (RandomBot(1), GreedyBot(), StrongBot())}
    assert means["greedy"] > means["random"] + 100
    assert means["strong"] > means["random"] + 100


def test_make_bot_refuses_unknown_names():
    import pytest

    with pytest.raises(ValueError) as refused:
        make_bot("oracle")
    assert str(refused.value) == "unknown bot 'oracle'; choose one of random, greedy, strong"
    with pytest.raises(ValueError) as refused:  # not a TypeError: a list cannot be looked up
        make_bot(["strong"])  # type: ignore[arg-type]
    assert str(refused.value) == "unknown bot ['strong']; choose one of random, greedy, strong"


def test_the_default_evaluation_knobs_reproduce_the_factor_per_card():
    from mathgames.matematiko.bots import _tails
    from mathgames.matematiko.odds import unseen_counts

    called = (7, 7, 3, 9, 12)
    tails = _tails(unseen_counts(called), 25 - len(called))
    plain = StrongBot(factor=0.5)._valuer(tails)
    explicit = StrongBot(discounts=[[0.5 ** k] * 6 for k in range(6)])._valuer(tails)
    for content in [(7, 7), (3, 9), (1, 10, 12), (7, 7, 12)]:
        assert plain(content) == explicit(content)


def test_contested_values_have_lower_odds():
    # two unfinished lines hold a 7 and one holds a 3: the 7s' odds shrink twice as much
    contents = [(7,), (7, 3)] + [()] * 10
    bot = StrongBot(contest=0.5, contest_free=0)
    scales = bot._scales(contents)
    assert scales[7] == 0.25 and scales[3] == 0.5 and scales[5] == 1.0
    assert StrongBot()._scales(contents) is None  # no contest: the odds as they are
    full = [(7, 7, 7, 7, 1)] + [()] * 11  # a finished line competes for nothing
    assert bot._scales(full)[7] == 1.0


def test_the_tuned_evaluation_beats_the_plain_one_on_the_same_deals():
    from mathgames.matematiko.bots import TUNED

    deals = [shuffled_deck(9_000 + seed)[:25] for seed in range(60)]
    plain = statistics.mean(_total(play_deal(StrongBot(candidates=1), d)) for d in deals)
    tuned = statistics.mean(_total(play_deal(StrongBot(candidates=1, **TUNED), d))
                            for d in deals)
    assert tuned > plain


def _reference_value(bot: StrongBot, tails, content, weights=None) -> float:
    """A line's value as StrongBot's docstring defines it, term by term."""
    from mathgames.matematiko.bots import _targets

    miss, total, free = 1.0, 0.0, 5 - len(content)
    for points, needed, need in _targets(content):
        p = bot.discounts[needed][free - needed]
        for v, m in need:
            p *= tails[v][m]
        worth = points if weights is None else points * weights[points][needed]
        total += worth * p * miss
        miss *= 1.0 - p
        if miss < 1e-4:
            break
    return total


@settings(max_examples=40, deadline=None)
@given(st.permutations(DECK), st.integers(0, 24), st.integers(0, 4), st.booleans())
def test_the_fast_valuer_gives_the_defined_value_exactly(deck, placed, size, tuned):
    # the valuer reads ready rows and flattened odds (padded to 3 cards needed, or
    # the long loop for lines with 0-1 cards): the very same floats as the definition
    from mathgames.matematiko.bots import TUNED, _tails
    from mathgames.matematiko.lines import stage_of
    from mathgames.matematiko.odds import unseen_counts
    from mathgames.matematiko.weights import STAGE_WEIGHTS

    called, draws = deck[:placed], 25 - placed
    bot = StrongBot(weights=STAGE_WEIGHTS, **(TUNED if tuned else {}))
    scales = bot._scales([tuple(sorted(deck[40:43]))] * 12)
    tails = _tails(unseen_counts(called), draws, scales)
    staged, plain = bot._valuer(tails, draws=draws), bot._valuer(tails)
    for start in range(25, 25 + 3 * 5, 5):
        content = tuple(sorted(deck[start:start + size]))
        assert staged(content) == _reference_value(bot, tails, content,
                                                   STAGE_WEIGHTS[stage_of(draws)])
        assert plain(content) == _reference_value(bot, tails, content)
