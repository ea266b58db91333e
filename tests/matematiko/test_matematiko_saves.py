"""Matematiko edge cases found by independent checks (issue 16), and a property test that
mutates valid saves: a load gives a legal match or CorruptSaveError, nothing else."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mathgames.core.errors import CorruptSaveError, InvalidMoveError
from mathgames.matematiko.deck import deal_for_code
from mathgames.matematiko.match import Match, Player, _checksum

CODE = "ABC234"
DEEP = ["[" * 100000 + "]" * 100000, '{"a":' * 60000 + "1" + "}" * 60000]


def _played(m: Match, cells: list[int]) -> Match:
    for cell in cells:
        m.call_next()
        for name in m.names:
            m.place(name, cell)
    return m


# -- recursion-safe loads ----------------------------------------------------------------------
@pytest.mark.parametrize("text", DEEP, ids=["list", "dict"])
def test_deeply_nested_text_is_a_corrupt_save(text):
    with pytest.raises(CorruptSaveError):
        Match.from_json(text)


@pytest.mark.parametrize("text", DEEP, ids=["list", "dict"])
def test_the_app_refuses_deeply_nested_text(text):
    from mathgames.matematiko.widget import MatematikoApp

    app = MatematikoApp()
    with pytest.raises(CorruptSaveError):
        app.load(text)
    assert app.match is None


@pytest.mark.parametrize("text", [b"\xff\xfe", 17, None, b'{"game": "matematiko"}'])
def test_text_of_the_wrong_kind_is_a_corrupt_save(text):
    with pytest.raises(CorruptSaveError):
        Match.from_json(text)


# -- cards are whole numbers ---------------------------------------------------------------------
@pytest.mark.parametrize("card", [1.0, True, "1", [1]])
def test_only_an_int_is_a_card(card):
    m = Match(["Ann"], deal=[1] * 4 + [2] * 4 + list(range(3, 13)) + [13] * 4 + [3, 4, 5])
    m.call_next()
    with pytest.raises(InvalidMoveError, match="card"):
        m.place("Ann", "a1", card=card)
    assert m.grid("Ann") == [None] * 25
    m.place("Ann", "a1", card=1)
    assert m.grid("Ann")[0] == 1


# -- the kept copy does not show the numbers to come ------------------------------------------
def _ints_in(value) -> list[list[int]]:
    found = []
    if isinstance(value, list):
        if value and all(isinstance(v, int) for v in value):
            found.append(value)
        for v in value:
            found.extend(_ints_in(v))
    elif isinstance(value, dict):
        for v in value.values():
            found.extend(_ints_in(v))
    return found


def test_the_kept_copy_hides_the_numbers_not_yet_called():
    from mathgames.matematiko.widget import MatematikoApp

    app = MatematikoApp(code=CODE, mode="class", names=["Ann"], bots=())
    app.start_button.click()
    app.call_button.click()
    app.board.click_cell("c3")
    app.call_button.click()
    kept = app.board.storage_value
    deal = deal_for_code(CODE)
    assert app.match.called == 2
    for numbers in _ints_in(json.loads(kept)):
        assert len(numbers) <= 2 or list(numbers) != list(deal[:len(numbers)]), numbers
    assert "deal" not in json.loads(kept)["match"]
    # and the game still resumes from it
    other = MatematikoApp()
    other.board.offer_stored(kept)
    other.banner.resume_button.click()
    assert other.match.to_json() == app.match.to_json()
    assert other.match.current == deal[1] and other.match.grid("Ann")[12] == deal[0]


def test_an_old_save_with_the_whole_deal_still_resumes():
    from mathgames.matematiko.widget import MatematikoApp

    m = _played(Match(["Ann"], code=CODE), [0, 6])
    old = {"game": "matematiko", "version": 1, "code": CODE, "deal": list(m.deal),
           "called": 2, "players": [{"name": "Ann", "bot": None, "cells": [0, 6]}]}
    old["checksum"] = _checksum(old)
    assert Match.from_dict(old).to_json() == m.to_json()
    app = MatematikoApp()
    app.load(json.dumps({"app": "matematiko", "mode": "class", "match": old}))
    assert app.match.grid("Ann")[:7] == [m.deal[0], None, None, None, None, None, m.deal[1]]


def test_a_match_without_a_code_keeps_its_deal():
    deal = [1] * 4 + [2] * 4 + list(range(3, 13)) + [13] * 4 + [3, 4, 5]
    m = _played(Match(["Ann"], deal=deal), [3])
    assert Match.from_json(m.to_json()).deal == tuple(deal)


# -- mutated saves --------------------------------------------------------------------------------
BASES = [
    _played(Match(["Ann", Player("Bot", "strong"), "Cy"], code=CODE), [3, 7, 11, 0]).to_dict(),
    _played(Match(["Solo"], deal=[1] * 4 + [2] * 4 + list(range(3, 13)) + [13] * 4 + [3, 4, 5]),
            [5, 6]).to_dict(),
]


@st.composite
def _mutated(draw) -> dict:
    data = json.loads(json.dumps(draw(st.sampled_from(BASES))))
    junk = st.one_of(st.none(), st.booleans(), st.integers(-30, 30), st.floats(allow_nan=False),
                     st.text(max_size=8), st.lists(st.integers(-2, 30), max_size=26),
                     st.just({}), st.just(CODE), st.just("ZZZZZZ"))
    for _ in range(draw(st.integers(1, 3))):
        key = draw(st.sampled_from(sorted(data)))
        target, where = data, key
        if key == "players" and isinstance(data[key], list) and data[key] and draw(
                st.booleans()):
            target = data[key][draw(st.integers(0, len(data[key]) - 1))]
            if not isinstance(target, dict) or not target:
                break
            where = draw(st.sampled_from(sorted(target)))
        how = draw(st.sampled_from(["drop", "duplicate", "retype", "nest", "truncate",
                                    "range"]))
        old = target[where]
        if how == "drop":
            del target[where]
        elif how == "duplicate" and isinstance(old, list) and old:
            target[where] = [*old, old[-1]]
        elif how == "nest":
            target[where] = [old]
        elif how == "truncate" and isinstance(old, (list, str)):
            target[where] = old[:draw(st.integers(0, max(0, len(old) - 1)))]
        elif how == "range":
            target[where] = draw(st.sampled_from([-1, 0, 1, 24, 25, 26, 10 ** 9]))
        else:
            target[where] = draw(junk)
    if draw(st.booleans()):  # a tamperer who recomputes the checksum
        data["checksum"] = _checksum({k: v for k, v in data.items() if k != "checksum"})
    return data


def _legal_match(m: Match) -> None:
    assert 0 <= m.called <= 25
    assert all(1 <= c <= 13 and type(c) is int for c in m.deal)
    for name in m.names:
        cells = m.cells(name)
        assert m.called - 1 <= len(cells) <= m.called and len(set(cells)) == len(cells)
        grid = m.grid(name)
        assert sum(v is not None for v in grid) == len(cells)
    assert Match.from_json(m.to_json()).to_json() == m.to_json()
    if m.waiting():
        name = m.waiting()[0]
        free = m.grid(name).index(None)
        m.place(name, free)
    elif m.called < 25:
        m.call_next()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_mutated())
def test_mutated_saves_load_as_legal_matches_or_are_refused(data):
    try:
        m = Match.from_dict(data)
    except CorruptSaveError:
        return
    _legal_match(m)


def _variants(value):
    """Every way the sweep damages one value: retyped, nested, truncated, duplicated,
    out of range (dropping is tried apart)."""
    out = [None, True, 1.5, "x", {}, [], [value], -1, 10 ** 9, 25, 26]
    if isinstance(value, list) and value:
        out += [value[:-1], [*value, value[-1]], value[:1]]
    if isinstance(value, str) and value:
        out += [value[:-1], value * 2]
    if isinstance(value, int) and not isinstance(value, bool):
        out += [value + 1, value - 1]
    return out


def _paths(data, depth=3, prefix=()):
    if isinstance(data, dict):
        items = list(data.items())
    else:
        items = [(k, data[k]) for k in sorted({0, len(data) - 1}) if data]
    for key, value in items:
        yield (*prefix, key)
        if depth > 1 and isinstance(value, (dict, list)):
            yield from _paths(value, depth - 1, (*prefix, key))


@pytest.mark.parametrize("base", BASES, ids=["code", "deal"])
@pytest.mark.parametrize("resign", [False, True], ids=["as-is", "checksum-recomputed"])
def test_every_field_damaged_every_way_loads_legally_or_is_refused(base, resign):
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
            if resign:
                data["checksum"] = _checksum({k: v for k, v in data.items() if k != "checksum"})
            try:
                m = Match.from_dict(data)
            except CorruptSaveError:
                pass
            else:
                _legal_match(m)
            checked += 1
    assert checked > 100


def test_the_app_loads_every_damaged_save_legally_or_refuses_it():
    from mathgames.matematiko.widget import MatematikoApp

    app = MatematikoApp(code=CODE, mode="class", names=["Ann"], bots=("strong",))
    app.start_button.click()
    app.call_button.click()
    app.board.click_cell("c3")
    base = json.loads(app.board.storage_value)
    other = MatematikoApp()
    variants = [None, True, 1.5, "x", {}, [], -1, ["class"], {"game": "matematiko"}, "solitaire"]
    for key in base:
        for variant in [*variants, [base[key]], "drop"]:
            data = dict(base)
            if variant == "drop":
                del data[key]
            else:
                data[key] = variant
            try:
                other.load(json.dumps(data))
            except CorruptSaveError:
                continue
            _legal_match(Match.from_json(other.match.to_json()))
