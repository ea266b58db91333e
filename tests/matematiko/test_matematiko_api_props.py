"""No public method of the Matematiko core raises anything but the project's errors,
whatever it is given, and a refused call leaves the match unchanged (issue 16)."""

from __future__ import annotations

import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mathgames.core.errors import MathgamesError
from mathgames.matematiko.deck import deal_for_code, normalize_code
from mathgames.matematiko.match import Match, Player, cell_index, cell_name, full_lines
from mathgames.matematiko.rules import combination, score_grid, score_line

ANY = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 30), st.integers(), st.just(math.nan),
    st.floats(allow_nan=False, width=32), st.text(max_size=8),
    st.sampled_from(["Ann", "Ben", "a1", "e5", "c3", "ABC234", "f9"]),
    st.tuples(st.integers(-1, 5), st.integers(-1, 5)), st.lists(st.integers(-2, 14),
                                                                max_size=26),
    st.just({}), st.just([None] * 25), st.just(Player("Ann")),
)

METHODS = {
    "player": 1, "cells": 1, "grid": 1, "rows": 1, "has_placed": 1, "waiting": 0,
    "score": 1, "points_so_far": 1, "standings": 0, "history": 0, "call_next": 0,
    "place": 3, "can_undo": 1, "undo": 1, "uncall": 0, "to_dict": 0, "to_json": 0,
}


def _matches() -> list[Match]:
    a = Match(["Ann", "Ben"], code="ABC234")
    a.call_next()
    a.place("Ann", "c3")
    full = Match(["Ann"], code="ABC234")
    for cell in range(25):
        full.call_next()
        full.place("Ann", cell)
    return [a, Match(["Ann"], code="XYZ789"), full]


MATCHES = _matches()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_public_methods_raise_only_project_errors(data):
    match = Match.from_json(data.draw(st.sampled_from(MATCHES)).to_json())
    name = data.draw(st.sampled_from(sorted(METHODS)))
    args = [data.draw(ANY) for _ in range(METHODS[name])]
    before = match.to_json()
    try:
        getattr(match, name)(*args)
    except MathgamesError:
        assert match.to_json() == before
    Match.from_json(match.to_json())


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_constructors_loaders_and_helpers_raise_only_project_errors(data):
    which = data.draw(st.sampled_from(["match", "json", "dict", "cell_index", "cell_name",
                                       "full_lines", "score_line", "score_grid", "combination",
                                       "normalize_code", "deal_for_code"]))
    value = data.draw(ANY)
    try:
        if which == "match":
            Match(data.draw(ANY | st.just(["Ann"])), data.draw(ANY | st.none()),
                  data.draw(ANY | st.none()))
        elif which == "json":
            Match.from_json(value)
        elif which == "dict":
            Match.from_dict(value)
        elif which == "cell_index":
            cell_index(value)
        elif which == "cell_name":
            cell_name(value)
        elif which == "full_lines":
            full_lines(value)
        elif which == "score_line":
            score_line(value, data.draw(ANY))
        elif which == "score_grid":
            score_grid(data.draw(ANY | st.lists(ANY | st.lists(st.integers(-1, 14), min_size=5,
                                                                 max_size=5), max_size=6)))
        elif which == "combination":
            combination(value)
        elif which == "normalize_code":
            normalize_code(value)
        else:
            deal_for_code(value)
    except MathgamesError:
        pass
