"""No public method of the Halma core raises anything but the project's errors, whatever it
is given, and a refused call leaves the game unchanged (issue 16)."""

from __future__ import annotations

import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mathgames.core.errors import MathgamesError
from mathgames.halma.game import PASS, Game, Move

ANY = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 300), st.integers(), st.just(math.nan),
    st.floats(allow_nan=False, width=32), st.text(max_size=8),
    st.sampled_from(["a1", "d4", "d4-e5", "a1-b2", "pass", "p16", "z99", "a1-c3-e5", "halma",
                     "star", "a14-b14"]),
    st.tuples(st.integers(-3, 3), st.integers(-3, 3)), st.lists(st.integers(-2, 5), max_size=4),
    st.just({}), st.just(PASS), st.just(Move(("d4", "e5"))), st.just(Move(("zz", "d4"))),
    st.dictionaries(st.integers(-1, 3), st.lists(st.sampled_from(["a1", "b2", "x"]),
                                                  max_size=3), max_size=2),
)

METHODS = {
    "owner": 1, "pieces_of": 1, "pair_moves": 0, "legal_moves": 0, "moves_from": 1,
    "check": 1, "play": 1, "undo": 0, "last_move": 0, "pieces_home": 1, "rows_to_go": 1,
    "is_over": 0, "result": 0, "position_text": 0, "copy": 0, "reset": 0,
    "turns_taken": 2, "stayed": 1, "camp_filled": 1,
}


def _games() -> list[Game]:
    a = Game("star", 2)
    a.play("d4-i5")
    return [a, Game("halma", 3), Game.custom("halma", 2, {0: ["a1"], 1: ["b2", "d4"]})]


GAMES = _games()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_public_methods_raise_only_project_errors(data):
    game = data.draw(st.sampled_from(GAMES)).copy()
    name = data.draw(st.sampled_from(sorted(METHODS)))
    args = [data.draw(ANY) for _ in range(METHODS[name])]
    before = (game.position_text(), list(game.history))
    try:
        getattr(game, name)(*args)
    except MathgamesError:
        assert (game.position_text(), list(game.history)) == before
    Game.from_position_text(game.position_text())


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_constructors_and_loaders_raise_only_project_errors(data):
    which = data.draw(st.sampled_from(["game", "custom", "text", "parse"]))
    try:
        if which == "game":
            Game(data.draw(ANY), data.draw(ANY), data.draw(ANY), data.draw(ANY),
                 data.draw(ANY | st.sampled_from(["bounded", "literal", "swap"])))
        elif which == "custom":
            Game.custom(data.draw(st.sampled_from(["halma", "star"]) | ANY),
                        data.draw(st.sampled_from([2, 3]) | ANY), data.draw(ANY),
                        data.draw(ANY | st.just(0)), data.draw(ANY | st.none()),
                        fill_rule=data.draw(ANY | st.sampled_from(["literal", "swap"])))
        elif which == "text":
            Game.from_position_text(data.draw(ANY))
        else:
            Move.parse(data.draw(ANY))
    except MathgamesError:
        pass
