"""Triomino edge cases found by independent checks (issue 16), and a property test that
mutates valid saves: every load gives a legal game or raises CorruptSaveError, nothing else."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mathgames.core.errors import CorruptSaveError, InvalidMoveError, SetupError
from mathgames.triomino import PRESETS, Game, Placement, RuleSet, ScoreEntry, Tile, all_tiles

T = Tile.parse

#: What a message in words never contains: a Python exception's repr or class name.
RAW = re.compile(r"[A-Z][A-Za-z]*Error|Exception\(|sequence item|object has no attribute")


def P(tile, x, y, r=0):
    return Placement(T(tile), (x, y), r)


def saved_game() -> dict:
    game = Game("pressman", 3, seed=5)
    for _ in range(4):
        game.apply(game.legal_actions()[0])
    return game.to_dict()


# -- the score sheet ----------------------------------------------------------------------
@pytest.mark.parametrize("entry", [
    [1, -1, "tile", 5, 0, "1-1-3", 0],  # player -1 was credited to the last player
    [0, 0, "tile", 5, 0, "1-1-3", 0],  # there is no round 0
    [1, 3, "tile", 5, 0, "1-1-3", 0],  # a fourth player in a three-player game
    [1, 0, "tile", 5, 0, "1-1-3", -1],  # a turn before the first
])
def test_sheet_entry_for_a_missing_player_or_round_is_refused(entry):
    data = saved_game()
    data["sheet"].append(entry)
    with pytest.raises(CorruptSaveError, match="score sheet") as info:
        Game.from_dict(data)
    assert not RAW.search(str(info.value))


# -- rule sets -------------------------------------------------------------------------------
WRONG_TYPES = [
    ("keep_score", "no"), ("multi_round", 0), ("zero_triple_choice", "maybe"), ("name", 7),
    ("target_score", True), ("hexagon_bonuses", [True, 60, 70]), ("start_bonus_needs_triple", 1),
    ("target_ends_at_once", None), ("max_draws", 2.0), ("min_players", "2"),
    ("hand_sizes", [9, 9, 7, 7, 6, True]), ("start_rule", ["highest_triple"]),
    ("max_players", 6.0), ("hexagon_bonuses", "abc"), ("hand_sizes", 9),
]


@pytest.mark.parametrize(("field", "value"), WRONG_TYPES)
def test_rule_set_refuses_a_field_of_the_wrong_type(field, value):
    data = RuleSet().to_dict()
    data[field] = value
    with pytest.raises(SetupError, match=field) as info:
        RuleSet(**data)
    assert not RAW.search(str(info.value))
    with pytest.raises(SetupError, match=field):
        RuleSet.from_dict(data)
    saved = saved_game()
    saved["rules"][field] = value
    with pytest.raises(CorruptSaveError, match=field) as info:
        Game.from_dict(saved)
    assert not RAW.search(str(info.value))


@pytest.mark.parametrize("seed", [True, 1.5, "7", None])
def test_seed_of_the_wrong_type_is_refused(seed):
    with pytest.raises(SetupError, match="seed"):
        Game("pressman", 2, seed=seed)
    saved = saved_game()
    saved["seed"] = seed
    with pytest.raises(CorruptSaveError, match="seed"):
        Game.from_dict(saved)


# -- the target during a round ---------------------------------------------------------------
def test_reaching_the_target_during_a_round_ends_the_game_at_its_end():
    # P0 reaches 402 with 2-2-3, then loses points drawing and passing: 382 at the round's end
    game = Game.from_position("pressman", [["2-2-3", "0-0-5"], ["0-1-3", "4-4-4"]],
                              table=[P("1-2-3", 0, 0)], pool=["5-5-5", "3-4-4"])
    game.sheet = [ScoreEntry(1, 0, "tile", 395)]
    game.place("2-2-3", (1, 0), 0)
    assert game.scores[0] == 402 and game.phase == "play"  # pressman plays the round out
    game.place("0-1-3", (-1, 0), 1)
    game.draw()
    game.draw()
    game.pass_turn()
    assert game.scores[0] < 400
    assert game.round_ends == ["blocked"]
    assert game.phase == "game_over" and game.winners == [0]
    # the same round without the 400 goes on to a next round
    game = Game.from_position("pressman", [["2-2-3", "0-0-5"], ["0-1-3", "4-4-4"]],
                              table=[P("1-2-3", 0, 0)], pool=["5-5-5", "3-4-4"])
    game.sheet = [ScoreEntry(1, 0, "tile", 385)]
    for act in (lambda: game.place("2-2-3", (1, 0), 0), lambda: game.place("0-1-3", (-1, 0), 1),
                game.draw, game.draw, game.pass_turn):
        act()
    assert game.phase == "round_over"


# -- positions set up by hand ------------------------------------------------------------------
def test_from_position_with_an_empty_table_lets_the_player_to_move_start():
    game = Game.from_position("schmidt", [["3-3-5", "5-5-5"], ["3-3-3", "4-4-4"]], table=[],
                              current=1)
    actions = game.legal_actions()
    assert actions and {a[1].tile for a in actions if a[0] == "place"} == {T("3-3-3"),
                                                                           T("4-4-4")}
    game.place("3-3-3", (0, 0), 0)
    assert len(game.table) == 1 and game.current == 0 and game.scores == [0, 9 + 10]


def test_from_position_refuses_a_player_to_move_who_is_not_there():
    with pytest.raises(SetupError, match="current"):
        Game.from_position("schmidt", [["0-1-2"], ["3-3-3"]], current=2)


# -- malformed moves ---------------------------------------------------------------------------
@pytest.mark.parametrize("cell", [(1,), None, (1, 2, 3), "c1_0", (1.0, 0), (True, 0), [1, 0],
                                  (10 ** 9, 0)])
def test_place_with_a_malformed_cell_is_an_invalid_move(cell):
    game = Game.from_position("schmidt", [["2-2-3"], ["4-4-4"]], table=[P("1-2-3", 0, 0)])
    before = game.to_json()
    with pytest.raises(InvalidMoveError, match="cell") as info:
        game.place("2-2-3", cell, 0)
    assert not RAW.search(str(info.value))
    assert game.to_json() == before


@pytest.mark.parametrize("rotation", [True, 1.0, None, "1"])
def test_place_with_a_malformed_rotation_is_an_invalid_move(rotation):
    game = Game.from_position("schmidt", [["2-2-3"], ["4-4-4"]], table=[P("1-2-3", 0, 0)])
    with pytest.raises(InvalidMoveError, match="rotation"):
        game.place("2-2-3", (1, 0), rotation)


# -- refusals in words ---------------------------------------------------------------------------
@pytest.mark.parametrize(("key", "value"), [
    ("names", [1, 2, 3]), ("start_tiles", [1]), ("start_draws", [[0, 1.5]]), ("log", 5),
    ("sheet", [[1, 0, "tile", 5, 0, 7, 0]]), ("sheet", "x"), ("rules", []), ("rules", None),
    ("hands", [[1], [], []]), ("last_drawn", 5), ("round_ends", [["out"]]),
    ("winners", [[0]]), ("round_winners", [0]), ("table", [["1-1-1", 0]]), ("pool", None),
    ("phase", []), ("seed", {}),
])
def test_every_refusal_says_in_words_what_is_wrong_and_where(key, value):
    data = saved_game()
    data[key] = value
    with pytest.raises(CorruptSaveError) as info:
        Game.from_dict(data)
    message = str(info.value)
    assert not RAW.search(message), message
    assert key.rstrip("s").replace("_", " ") in message.replace("_", " "), message


def test_a_missing_field_is_named():
    data = saved_game()
    del data["pool"]
    with pytest.raises(CorruptSaveError, match="pool") as info:
        Game.from_dict(data)
    assert not RAW.search(str(info.value))


# -- mutated saves -------------------------------------------------------------------------------
def _legal_game_invariants(game: Game) -> None:
    """What every loaded game satisfies: the tiles, the players, the turn, a working round."""
    n = game.players
    assert 0 <= game.current < n and 0 <= game.starter < n and game.round >= 1
    if game.phase == "play" or len(game.table):
        tiles = sorted([*game.table.tiles(), *game.pool, *(t for h in game.hands for t in h)])
        assert tiles == all_tiles()
    assert all(0 <= e.player < n and 1 <= e.round <= game.round for e in game.sheet)
    assert all(0 <= w < n for w in game.winners)
    assert Game.from_json(game.to_json()).to_dict() == game.to_dict()
    actions = game.legal_actions()
    if game.phase == "play":
        assert actions, "a game in play has a legal action"
        game.apply(actions[0])  # a legal action is accepted


def _mutations(base: dict) -> st.SearchStrategy:
    """A mutated copy of ``base``: a field dropped, duplicated, retyped, nested, truncated
    or put out of range, at the top level or one level down."""
    junk = st.one_of(st.none(), st.booleans(), st.integers(-10 ** 6, 10 ** 6),
                     st.floats(allow_nan=False), st.text(max_size=8),
                     st.lists(st.integers(-3, 60), max_size=4), st.just({}),
                     st.sampled_from(["5-5-5", "0-0-0", "1-2-3", "play", "game_over"]))

    @st.composite
    def mutate(draw):
        data = json.loads(json.dumps(base))
        for _ in range(draw(st.integers(1, 3))):
            key = draw(st.sampled_from(sorted(data)))
            target, where = data, key
            value = data[key]
            if isinstance(value, (list, dict)) and value and draw(st.booleans()):
                target = value
                where = (draw(st.integers(0, len(value) - 1)) if isinstance(value, list)
                         else draw(st.sampled_from(sorted(value))))
            how = draw(st.sampled_from(["drop", "duplicate", "retype", "nest", "truncate",
                                        "range"]))
            old = target[where]
            if how == "drop":
                del target[where]
            elif how == "duplicate" and isinstance(target, list):
                target.append(old)
            elif how == "retype":
                target[where] = draw(junk)
            elif how == "nest":
                target[where] = [old]
            elif how == "truncate" and isinstance(old, (list, str)):
                target[where] = old[:draw(st.integers(0, max(0, len(old) - 1)))]
            elif how == "range":
                target[where] = draw(st.sampled_from([-1, 0, 1, 2, 3, 7, 56, 10 ** 9, -10 ** 9]))
            else:
                target[where] = draw(junk)
        return data

    return mutate()


BASES = [saved_game(), Game("family", 2, 1).to_dict(), Game("solitaire", 1, 2).to_dict()]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_saves_load_as_legal_games_or_are_refused(data):
    base = data.draw(st.sampled_from(BASES))
    mutated = data.draw(_mutations(base))
    try:
        game = Game.from_dict(mutated)
    except CorruptSaveError as error:
        assert not RAW.search(str(error)), str(error)
        return
    _legal_game_invariants(game)


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=40) | st.binary(max_size=20).map(lambda b: b.decode("latin-1")))
def test_arbitrary_text_loads_or_is_refused(text):
    with pytest.raises(CorruptSaveError):
        Game.from_json(text)


def test_deeply_nested_text_is_refused():
    for text in ("[" * 100000 + "]" * 100000, '{"a":' * 50000 + "1" + "}" * 50000):
        with pytest.raises(CorruptSaveError):
            Game.from_json(text)
    # a field nested deeper than its message can write it out (the message says "a list")
    deep: list = []
    for _ in range(5000):
        deep = [deep]
    for key in ("round", "phase", "current"):
        data = Game(seed=1).to_dict() | {key: deep}
        with pytest.raises(CorruptSaveError, match=f"{key}.* a list"):
            Game.from_dict(data)


def test_presets_survive_their_own_round_trip():
    for name, rules in PRESETS.items():
        assert RuleSet.from_dict(rules.to_dict()) == rules, name


def _variants(value):
    """Every way the sweep damages one value: dropped (None here), retyped, nested,
    truncated, duplicated, out of range."""
    out = [None, True, 1.5, "x", {}, [], [value], -1, 10 ** 9]
    if isinstance(value, list) and value:
        out += [value[:-1], [*value, value[-1]], value[:1]]
    if isinstance(value, str) and value:
        out += [value[:-1], value * 2]
    if isinstance(value, int) and not isinstance(value, bool):
        out += [value + 1, value - 1, -value - 1]
    return out


def _paths(data, depth=2, prefix=()):
    """Every field, and every field one and two levels down (list items, dict keys)."""
    if isinstance(data, dict):
        items = list(data.items())
    else:  # the first and the last item of a list stand for all of them
        items = [(k, data[k]) for k in sorted({0, len(data) - 1}) if data]
    for key, value in items:
        yield (*prefix, key)
        if depth > 1 and isinstance(value, (dict, list)):
            yield from _paths(value, depth - 1, (*prefix, key))


def test_every_field_damaged_every_way_loads_legally_or_is_refused():
    base = saved_game()
    checked = 0
    for path in _paths(base):
        parent = base
        for key in path[:-1]:
            parent = parent[key]
        for variant in [*_variants(parent[path[-1]]), "drop"]:
            data = json.loads(json.dumps(base))
            target = data
            for key in path[:-1]:
                target = target[key]
            if variant == "drop":
                del target[path[-1]]
            else:
                target[path[-1]] = variant
            try:
                game = Game.from_dict(data)
            except CorruptSaveError as error:
                assert not RAW.search(str(error)), (path, variant, str(error))
            else:
                _legal_game_invariants(game)
            checked += 1
    assert checked > 500


def test_the_app_loads_every_damaged_save_legally_or_refuses_it():
    from mathgames.triomino.widget import TriominoApp

    app = TriominoApp("schmidt", players=2, bots=1, seed=3)
    app.start_button.click()
    if app.game.legal_placements():
        app.game.play(app.game.legal_placements()[0])
    base = json.loads(app.save())
    other = TriominoApp()
    variants = [None, True, 1.5, "x", {}, [], -1, "[" * 5, {"0": "greedy"}, {"1": ["greedy"]},
                {"7": "greedy"}, {"٣": "greedy"}, [[]], [{"format": 1}]]
    for key in base:
        for variant in [*variants, [base[key]], "drop"]:
            data = dict(base)
            if variant == "drop":
                del data[key]
            else:
                data[key] = variant
            try:
                other.load(json.dumps(data))
            except CorruptSaveError as error:
                assert not RAW.search(str(error)), (key, variant, str(error))
                continue
            _legal_game_invariants(other.game.copy())
    with pytest.raises(CorruptSaveError):
        other.load("[" * 100000 + "]" * 100000)
