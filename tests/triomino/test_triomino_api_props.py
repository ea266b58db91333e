"""No public method of the Triomino core raises anything but the project's errors, whatever
it is given, and a refused call leaves the game unchanged (issue 16)."""

from __future__ import annotations

import dataclasses
import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mathgames.core.errors import MathgamesError
from mathgames.triomino import Game, Placement, RuleSet, ScoreEntry, Tile

ANY = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 60), st.integers(), st.just(math.nan),
    st.floats(allow_nan=False, width=32), st.text(max_size=6),
    st.sampled_from(["1-2-3", "5-5-5", "0-0-0", "place", "draw", "pass", "pressman", "c1_0"]),
    st.tuples(st.integers(-3, 3), st.integers(-3, 3)), st.tuples(st.integers(-3, 3)),
    st.lists(st.integers(-2, 5), max_size=4), st.just({}), st.just([[]]),
    st.sampled_from([Tile.parse("1-2-3"), Tile.parse("5-5-5")]),
    st.builds(lambda t, x, y, r: Placement(Tile.parse(t), (x, y), r),
              st.sampled_from(["1-2-3", "5-5-5", "0-1-3", "2-2-3"]), st.integers(-2, 2),
              st.integers(-2, 2), st.integers(0, 2)),
    st.tuples(st.sampled_from(["place", "draw", "pass", "x"]), st.none()),
)

#: Public methods and how many arguments each takes.
METHODS = {
    "legal_placements": 1, "legal_actions": 0, "can_draw": 0, "can_pass": 0, "hand": 1,
    "hand_value": 1, "round_scores": 1, "entries": 2, "points_for": 1, "pass_penalty": 0,
    "apply": 1, "place": 3, "check": 1, "play": 1, "draw": 0, "pass_turn": 0,
    "next_round": 0, "undo": 0, "undo_snapshots": 1, "restore_undo": 1, "copy": 1,
    "to_dict": 0, "to_json": 0,
}


def _games() -> list[Game]:
    a = Game("pressman", 2, seed=4)
    b = Game("schmidt", 3, seed=9)
    b.play(b.legal_placements()[0])
    b.apply(b.legal_actions()[-1])
    return [a, b, Game("solitaire", 1, seed=3)]


GAMES = _games()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_public_methods_raise_only_project_errors(data):
    game = data.draw(st.sampled_from(GAMES)).copy(history=True)
    name = data.draw(st.sampled_from(sorted(METHODS)))
    args = [data.draw(ANY) for _ in range(METHODS[name])]
    before = game.to_json()
    try:
        getattr(game, name)(*args)
    except MathgamesError:
        assert game.to_json() == before
    Game.from_json(game.to_json())  # whatever happened, the game is still a legal save


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_constructors_and_loaders_raise_only_project_errors(data):
    which = data.draw(st.sampled_from(["game", "rules", "position", "json", "dict", "tile",
                                       "parse", "placement", "entry", "check"]))
    try:
        if which == "game":
            Game(data.draw(ANY), data.draw(ANY), data.draw(ANY))
        elif which == "rules":
            field = data.draw(st.sampled_from([f.name for f in dataclasses.fields(RuleSet)]))
            RuleSet(**{field: data.draw(ANY)})
        elif which == "position":
            Game.from_position(data.draw(st.sampled_from(["schmidt", "family"]) | ANY),
                               data.draw(ANY | st.just([["1-2-3"], ["5-5-5"]])),
                               table=data.draw(ANY | st.just(())), pool=data.draw(ANY),
                               current=data.draw(ANY | st.just(0)))
        elif which == "json":
            Game.from_json(data.draw(ANY))
        elif which == "tile":
            Tile(data.draw(ANY), data.draw(ANY), data.draw(ANY))
        elif which == "parse":
            Tile.parse(data.draw(ANY))
        elif which == "placement":
            Placement.from_list(data.draw(ANY | st.lists(ANY, min_size=4, max_size=4)))
        elif which == "entry":
            ScoreEntry.from_list(data.draw(ANY | st.lists(ANY, min_size=7, max_size=7)))
        elif which == "check":
            table = GAMES[1].table.copy()
            table.check(Placement(data.draw(ANY), data.draw(ANY), data.draw(ANY)))
        else:
            Game.from_dict(data.draw(ANY))
    except MathgamesError:
        pass
