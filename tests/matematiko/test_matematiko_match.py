"""A match for a class: placements, calls, undo, ranking, save and load."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mathgames.core.errors import CorruptSaveError, IllegalMoveError, InvalidMoveError
from mathgames.matematiko import Match, Player, deal_for_code, score_grid
from mathgames.matematiko.match import MAX_PLAYERS

DEAL = [*range(1, 14), *range(1, 13)]


def test_placement_errors_say_what_and_leave_the_match_as_it_was():
    m = Match(["Ann", "Ben"], deal=DEAL)
    with pytest.raises(IllegalMoveError, match="no number has been called"):
        m.place("Ann", "a1")
    m.call_next()
    m.place("Ann", "a1")
    before = m.to_json()
    cases = [
        (("Ann", "b1"), IllegalMoveError, "already placed the 1"),
        (("Ben", "a1", 5), IllegalMoveError, "the number called is 1, not 5"),
        (("Ben", "f9"), InvalidMoveError, "not a cell"),
        (("Ben", 25), InvalidMoveError, "not a cell"),
        (("Zoe", "a1"), InvalidMoveError, "no player called 'Zoe'"),
    ]
    for args, error, message in cases:
        with pytest.raises(error, match=message):
            m.place(*args)
        assert m.to_json() == before
    with pytest.raises(IllegalMoveError, match="Ben must place the 1"):
        m.call_next()
    m.place("Ben", "a1", 1)
    m.call_next()
    with pytest.raises(IllegalMoveError, match="cell a1 already holds a 1"):
        m.place("Ann", "a1")


def test_undo_only_the_own_last_placement_until_the_next_call():
    m = Match(["Ann", "Ben"], deal=DEAL)
    m.call_next()
    with pytest.raises(IllegalMoveError, match="nothing to take back"):
        m.undo("Ann")
    m.place("Ann", "c3")
    m.place("Ben", "a1")
    assert m.undo("Ann") == 12
    assert m.grid("Ann")[12] is None and m.grid("Ben")[0] == 1
    m.place("Ann", "d4")
    m.call_next()
    with pytest.raises(IllegalMoveError):
        m.undo("Ann")
    assert m.grid("Ann")[18] == 1


def test_a_whole_game_ends_with_scores_and_shared_ranks():
    code = "KQ7M2X"
    m = Match(["Ann", "Ben", "Cy"], code=code)
    assert m.deal == deal_for_code(code)
    for k in range(25):
        card = m.call_next()
        m.place("Ann", k, card)       # row by row
        m.place("Ben", (k % 5) * 5 + k // 5)  # column by column: the transposed grid
        m.place("Cy", 24 - k)
    assert m.is_over
    with pytest.raises(IllegalMoveError, match="all 25 numbers"):
        m.call_next()
    with pytest.raises(IllegalMoveError, match="game is over"):
        m.place("Ann", 0)
    ann, ben = m.score("Ann").total, m.score("Ben").total
    assert ann == score_grid([list(m.deal[r * 5:r * 5 + 5]) for r in range(5)]).total
    assert ann == ben  # a transposed grid swaps rows and columns; the diagonals stay
    standings = m.standings()
    by_name = {s.name: s for s in standings}
    assert by_name["Ann"].rank == by_name["Ben"].rank
    assert [s.total for s in standings] == sorted((s.total for s in standings), reverse=True)
    assert len(m.history()) == 25 and m.history()[0][1]["Ann"] == "a1"


def test_ranks_are_shared_and_skip_after_a_tie():
    m = Match(["A", "B", "C", "D"], code="RANK22")
    assert {s.rank for s in m.standings()} == {1}  # nothing placed: all equal
    for k in range(25):
        m.call_next()
        m.place("A", k)
        m.place("B", k)
        m.place("C", 24 - k)
        m.place("D", (k * 7) % 25)
    totals = {n: m.score(n).total for n in m.names}
    assert totals["A"] == totals["B"]
    ranks = {s.name: s.rank for s in m.standings()}
    for name in m.names:  # a rank is 1 + the number of players strictly ahead
        assert ranks[name] == 1 + sum(t > totals[name] for t in totals.values())


@pytest.mark.parametrize("players", [[], ["A", "A"], [""], ["x" * 41],
                                     [f"P{i}" for i in range(MAX_PLAYERS + 1)]])
def test_bad_player_lists_are_refused(players):
    with pytest.raises(InvalidMoveError):
        Match(players, deal=DEAL)


def test_a_class_of_forty_plays():
    m = Match([f"Student {i}" for i in range(40)], code="22222A")
    m.call_next()
    for name in m.names:
        m.place(name, "e5")
    assert m.waiting() == [] and m.call_next() == m.deal[1]


def _played(m: Match, cells: list[int]) -> Match:
    for cell in cells:
        m.call_next()
        for name in m.names:
            m.place(name, cell)
    return m


def test_save_and_load_refuse_corrupt_or_tampered_files():
    m = _played(Match(["Ann", Player("Bot", "strong")], code="ABC234"), [3, 7, 11])
    good = m.to_dict()
    assert Match.from_dict(good).players[1].bot == "strong"
    bad_texts = ["", "not json", "[]", json.dumps({"game": "chess"})]
    for text in bad_texts:
        with pytest.raises(CorruptSaveError):
            Match.from_json(text)
    tampered = json.loads(json.dumps(good))
    tampered["players"][0]["cells"][0] = 4
    with pytest.raises(CorruptSaveError, match="checksum"):
        Match.from_dict(tampered)
    # a consistent checksum over impossible content is still refused
    from mathgames.matematiko.match import _checksum

    for change in [lambda d: d["players"][0]["cells"].append(3),   # a cell twice
                   lambda d: d.__setitem__("called", 26),
                   lambda d: d.__setitem__("deal", [1] * 25),
                   # a version 1 save lists the deal: it must belong to the code
                   lambda d: d.update(version=1, deal=list(m.deal), code="ZZZZZZ"),
                   lambda d: d.__setitem__("version", 3)]:
        data = json.loads(json.dumps(good))
        change(data)
        data["checksum"] = _checksum({k: v for k, v in data.items() if k != "checksum"})
        with pytest.raises(CorruptSaveError):
            Match.from_dict(data)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 24), min_size=1, max_size=60), st.integers(1, 3))
def test_placements_change_one_cell_refusals_nothing_and_saves_round_trip(moves, players):
    m = Match([f"P{i}" for i in range(players)], code="H7H7H7")
    for step, cell in enumerate(moves):
        name = m.names[step % players]
        if m.called == 0 or (not m.waiting() and m.called < 25):
            m.call_next()
        before_grids = {n: m.grid(n) for n in m.names}
        before = m.to_json()
        try:
            m.place(name, cell)
        except (IllegalMoveError, InvalidMoveError):
            assert m.to_json() == before
            continue
        for other in m.names:
            after = m.grid(other)
            changed = [i for i in range(25) if after[i] != before_grids[other][i]]
            assert changed == ([cell] if other == name else [])
        loaded = Match.from_json(m.to_json())
        assert loaded.to_json() == m.to_json()
        assert all(loaded.grid(n) == m.grid(n) for n in m.names)
