"""Classes and tables: checked actions through the service, on both backends,
and property tests of the pure session logic."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mathgames.classroom.class_state import MAX_STUDENTS, ClassState, bot_scores, rank
from mathgames.classroom.games import triomino_text
from mathgames.classroom.service import Classroom
from mathgames.classroom.session import NotAllowedError, check_name
from mathgames.classroom.store import (
    Event,
    PostgresStore,
    Store,
    StoreError,
    UnknownSessionError,
    new_code,
)
from mathgames.classroom.table_state import TableState
from mathgames.classroom.tokens import hash_token
from mathgames.core.errors import IllegalMoveError, InvalidMoveError, MathgamesError
from mathgames.core.i18n import set_language
from mathgames.matematiko.deck import shuffled_deck

# -- a class through the service (both backends) ------------------------------------------------


def test_a_whole_class_game_with_late_joiner_and_ties(store: Store) -> None:
    room = Classroom(store)
    code, teacher = room.open_class(seed=11)
    ann, ann_t = room.join_class(code, "Ann")
    ben, ben_t = room.join_class(code, "Ben")
    for k in range(10):
        room.call(code, teacher)
        room.place(code, ann, ann_t, k, k)
        room.place(code, ben, ben_t, k, k)
    cy, cy_t = room.join_class(code, "Cy")  # late: places the 10 called numbers first
    state = room.load_class(code)
    assert state.waiting() == [cy]
    for k in range(10):
        room.place(code, cy, cy_t, k, k)
    for k in range(10, 25):
        room.call(code, teacher)
        for pid, token in ((ann, ann_t), (ben, ben_t), (cy, cy_t)):
            room.place(code, pid, token, k, k)
    state = room.load_class(code)
    assert state.is_over and state.calls == shuffled_deck(11)[:25]
    standings = state.standings()
    assert [s.rank for s in standings] == [1, 1, 1]  # the same grids: one shared first place
    assert standings[0].points == state.students[ann].points
    csv = state.csv().splitlines()
    assert len(csv) == 4 and csv[1].startswith("1,")
    with pytest.raises(IllegalMoveError):
        room.call(code, teacher)


def class_of_two(store: Store, seed: int) -> tuple[Classroom, str, str, list[tuple[str, str]]]:
    """A class with Ann and Ben (their ids and tokens) and one number called."""
    room = Classroom(store)
    code, teacher = room.open_class(seed=seed)
    students = [room.join_class(code, name) for name in ("Ann", "Ben")]
    room.call(code, teacher)
    return room, code, teacher, students


def test_forged_replayed_and_foreign_actions_change_nothing(store: Store) -> None:
    room, code, _teacher, [(ann, ann_t), (ben, _ben_t)] = class_of_two(store, seed=2)
    before = store.last_seq(code)
    with pytest.raises(NotAllowedError):
        room.place(code, ben, ann_t, 0, 3)  # Ann's token for Ben's grid
    with pytest.raises(NotAllowedError):
        room.place(code, ann, "forged", 0, 3)
    with pytest.raises(NotAllowedError):
        room.call(code, ann_t)  # a student's token for the teacher's control
    room.place(code, ann, ann_t, 0, 3)
    with pytest.raises(IllegalMoveError):
        room.place(code, ann, ann_t, 0, 4)  # replayed: number 1 is placed already
    with pytest.raises(IllegalMoveError):
        room.place(code, ann, ann_t, 1, 4)  # number 2 is not called yet
    assert store.last_seq(code) == before + 1
    assert room.load_class(code).students[ben].cells == []


def test_names_are_checked_and_the_class_holds_forty(store: Store) -> None:
    room = Classroom(store)
    code, _teacher = room.open_class()
    for bad in ("", "   ", "<b>x</b>", "a" * 21, "12345", "Ann; DROP"):
        with pytest.raises(InvalidMoveError):
            room.join_class(code, bad)
    names = [f"Kid {chr(65 + i // 26)}{chr(97 + i % 26)}" for i in range(MAX_STUDENTS)]
    for name in names:
        room.join_class(code, name)
    with pytest.raises(IllegalMoveError):
        room.join_class(code, "One More")
    with pytest.raises(IllegalMoveError):
        room.join_class(code, names[0].upper())  # the same name, other case
    assert len(room.load_class(code).students) == MAX_STUDENTS


def test_typed_calls_from_a_physical_deck(store: Store) -> None:
    room = Classroom(store)
    code, teacher = room.open_class(seed=5)
    for _ in range(4):
        room.call(code, teacher, card=13)
    with pytest.raises(IllegalMoveError):
        room.call(code, teacher, card=13)  # a deck has four of each
    with pytest.raises(InvalidMoveError):
        room.call(code, teacher, card=14)
    state = room.call(code, teacher)  # the class deck skips the four 13s
    assert state.calls[:4] == [13] * 4 and state.calls[4] != 13


def test_the_teacher_takes_back_a_card_typed_wrong(store: Store) -> None:
    room, code, teacher, [(ann, ann_t), (ben, ben_t)] = class_of_two(store, seed=5)
    room.place(code, ann, ann_t, 0, 0)
    room.place(code, ben, ben_t, 0, 1)
    room.call(code, teacher, card=13)  # the teacher meant 3
    room.place(code, ann, ann_t, 1, 12)  # Ann has placed the 13, Ben not yet
    with pytest.raises(NotAllowedError):
        room.uncall(code, ann_t, 1)  # only the teacher takes a number back
    with pytest.raises(IllegalMoveError):
        room.uncall(code, teacher, 0)  # only the last number
    state = room.uncall(code, teacher, 1)
    assert state.calls == shuffled_deck(5)[:1] and state.waiting() == []
    assert state.students[ann].cells == [0] and state.students[ann].grid[12] is None
    assert state.students[ben].cells == [1]
    with pytest.raises(IllegalMoveError):
        room.uncall(code, teacher, 1)  # a second click on a stale page: nothing more goes
    with pytest.raises(IllegalMoveError):
        room.place(code, ben, ben_t, 1, 5)  # the 13 is not there to place any more
    state = room.call(code, teacher, card=3)
    room.place(code, ann, ann_t, 1, 12)  # the same cell is free for the right card
    state = room.load_class(code)
    assert state.calls == [shuffled_deck(5)[0], 3] and state.students[ann].grid[12] == 3
    # the deck's own card taken back comes again next
    dealt = room.call(code, teacher).calls[-1]
    assert room.uncall(code, teacher, 2).calls == state.calls
    assert room.call(code, teacher).calls[-1] == dealt
    # a fresh class: nothing to take back
    other, other_teacher = room.open_class()
    with pytest.raises(IllegalMoveError):
        room.uncall(other, other_teacher, 0)


def test_a_student_takes_back_a_tap_on_the_wrong_cell(store: Store) -> None:
    room, code, teacher, [(ann, ann_t), (ben, ben_t)] = class_of_two(store, seed=6)
    first = shuffled_deck(6)[0]
    with pytest.raises(IllegalMoveError):
        room.unplace(code, ann, ann_t, 0)  # nothing placed yet
    room.place(code, ann, ann_t, 0, 24)  # meant: 0
    room.place(code, ben, ben_t, 0, 3)
    with pytest.raises(NotAllowedError):
        room.unplace(code, ann, ben_t, 0)  # Ben's pass cannot take back Ann's number
    with pytest.raises(NotAllowedError):
        room.unplace(code, ann, "forged", 0)
    with pytest.raises(IllegalMoveError):
        room.unplace(code, ann, ann_t, 1)  # a number not placed
    state = room.unplace(code, ann, ann_t, 0)
    assert state.students[ann].cells == [] and state.students[ann].grid[24] is None
    assert state.waiting() == [ann] and state.students[ben].grid[3] == first
    with pytest.raises(IllegalMoveError):
        room.unplace(code, ann, ann_t, 0)  # a second click on a stale page: nothing more
    state = room.place(code, ann, ann_t, 0, 0)
    assert room.load_class(code).students[ann].grid[:1] == [first]
    # once the next number is called, the placement before it stays
    room.call(code, teacher)
    before = store.last_seq(code)
    with pytest.raises(IllegalMoveError, match="before the next one"):
        room.unplace(code, ann, ann_t, 0)
    assert store.last_seq(code) == before
    # the last number of the game has one cell left: nothing to choose again
    for k in range(1, 25):
        if k > 1:
            room.call(code, teacher)
        room.place(code, ann, ann_t, k, k)
    state = room.load_class(code)
    assert state.is_over and not state.can_unplace(ann)
    with pytest.raises(IllegalMoveError):
        room.unplace(code, ann, ann_t, 24)


def test_the_same_class_plays_again_and_keeps_the_totals(store: Store) -> None:
    room, code, teacher, [(ann, ann_t), (ben, ben_t)] = class_of_two(store, seed=3)
    with pytest.raises(IllegalMoveError):
        room.again(code, teacher)  # the game is not over yet
    for k in range(25):
        if k:
            room.call(code, teacher)
        room.place(code, ann, ann_t, k, k)
        room.place(code, ben, ben_t, k, 24 - k)
    first = room.load_class(code)
    with pytest.raises(NotAllowedError):
        room.again(code, ann_t)  # only the teacher
    state = room.again(code, teacher)
    assert state.game == 2 and state.calls == [] and not state.is_over
    assert state.past == [{ann: first.students[ann].points, ben: first.students[ben].points}]
    assert all(s.cells == [] and s.grid == [None] * 25 for s in state.students.values())
    with pytest.raises(IllegalMoveError):
        room.again(code, teacher)  # a second click: the new game is not over
    cy, cy_t = room.join_class(code, "Cy")  # joins for the second game
    for k in range(25):
        state = room.call(code, teacher)
        for pid, token in ((ann, ann_t), (ben, ben_t), (cy, cy_t)):
            room.place(code, pid, token, k, k)
    assert state.calls == shuffled_deck(state.seed)[:25] and state.seed != first.seed
    state = room.load_class(code)  # the log replayed gives the same class
    totals = {t.pid: t.points for t in state.totals()}
    assert totals == {pid: s.points + first.students[pid].points if pid in first.students
                      else s.points for pid, s in state.students.items()}
    assert [t.points for t in state.totals()] == sorted(totals.values(), reverse=True)
    assert {s.pid: s.points for s in state.standings()} == {
        pid: s.points for pid, s in state.students.items()}  # this game's alone


def test_a_class_lists_its_own_tables_and_reads_no_older_ones(store: Store) -> None:
    room = Classroom(store)
    code, _teacher = room.open_class()
    other, _other_teacher = room.open_class()
    mine = room.open_table("halma", 2, class_code=code.lower())  # typed in small letters
    room.open_table("halma", 2, class_code=other)
    room.open_table("star", 3)  # a table of no class
    born = store.session(code).created
    body = json.dumps({"game": "halma", "seats": 2, "seed": 1, "class": code})
    # tables stamped before the class: by a server whose clock runs 10 minutes behind
    # (listed), and from long before (never read: a class's tables come after it)
    skewed, old = new_code(), new_code()
    assert store._insert_session(skewed, "table", body, born - 600)
    assert store._insert_session(old, "table", '{"class": "' + code + '", "x": [', 1.0)
    assert [t.code for t in room.tables_of(code)] == [skewed, mine]
    assert [t.code for t in room.tables_of(code.lower())] == [skewed, mine]


def test_only_the_teacher_deletes_a_class_and_its_tables(store: Store) -> None:
    room = Classroom(store)
    code, teacher = room.open_class(seed=5)
    other, _other_teacher = room.open_class()
    ann, ann_token = room.join_class(code, "Ann")
    room.call(code, teacher)
    room.place(code, ann, ann_token, 0, 3)
    mine = room.open_table("halma", 2, class_code=code)
    room.join_table(mine, "Ann")
    theirs, free = room.open_table("halma", 2, class_code=other), room.open_table("star", 3)
    for token in (ann_token, "0" * 32, None):
        with pytest.raises(NotAllowedError):
            room.delete_class(code, token)
    assert room.load_class(code).students[ann].cells == [3]  # nothing went
    assert room.delete_class(code.lower(), teacher) == 2
    for gone in (code, mine):
        with pytest.raises(UnknownSessionError):
            store.session(gone)
        assert store.events(gone) == []
    with pytest.raises(UnknownSessionError):
        room.join_class(code, "Ben")
    with pytest.raises(UnknownSessionError):
        room.delete_class(code, teacher)
    assert {s.code for s in store.sessions()} == {other, theirs, free}


def test_classes_and_tables_idle_for_the_days_kept_are_deleted(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    room = Classroom(store)
    day = 86400.0
    old_class, _teacher = room.open_class()
    old_table = room.open_table("halma", 2)
    busy, busy_teacher = room.open_class()
    # stamped as if opened 40 and 10 days ago; the busy class has a number called today
    prefix = "mathgames_" if isinstance(store, PostgresStore) else ""
    for code, age in ((old_class, 40), (old_table, 10), (busy, 40)):
        for table in ("sessions", "events"):
            store._db.execute(f"UPDATE {prefix}{table} SET created = created - {age * day} "
                              f"WHERE code = '{code}'")
    room.call(busy, busy_teacher)
    monkeypatch.delenv("MATHGAMES_KEEP_DAYS", raising=False)
    fresh, _fresh_teacher = room.open_class()  # kept 30 days by default
    assert {s.code for s in store.sessions()} == {old_table, busy, fresh}
    monkeypatch.setenv("MATHGAMES_KEEP_DAYS", "forever")
    room.open_table("star", 2)
    assert old_table in {s.code for s in store.sessions()}
    monkeypatch.setenv("MATHGAMES_KEEP_DAYS", "a month")
    with pytest.raises(StoreError, match="MATHGAMES_KEEP_DAYS='a month'"):
        room.open_class()
    assert len(store.sessions()) == 4  # refused before anything was opened
    monkeypatch.setenv("MATHGAMES_KEEP_DAYS", "7")
    room.open_table("star", 2)
    assert old_table not in {s.code for s in store.sessions()}
    assert busy in {s.code for s in store.sessions()}


def test_the_teacher_removes_a_student(store: Store) -> None:
    room, code, teacher, [(ann, ann_t), (ben, ben_t)] = class_of_two(store, seed=4)
    room.place(code, ben, ben_t, 0, 3)
    with pytest.raises(NotAllowedError):
        room.remove_student(code, ann_t, ben)  # only the teacher
    state = room.remove_student(code, teacher, ben)
    assert list(state.students) == [ann] and state.waiting() == [ann]
    with pytest.raises(NotAllowedError):
        room.place(code, ben, ben_t, 1, 4)  # Ben's pass no longer works
    with pytest.raises(IllegalMoveError):
        room.remove_student(code, teacher, ben)  # removed once
    again, _token = room.join_class(code, "Ben")  # the name is free: Ben joins anew
    state = room.load_class(code)
    assert set(state.students) == {ann, again} and state.students[again].cells == []
    assert [s.name for s in state.standings()] == ["Ann", "Ben"]


# -- a table through the service --------------------------------------------------------------

SHORT_STAR = {"0": ["e5"], "1": ["m13"], "2": ["e13"]}


def test_a_chinese_checkers_table_with_a_bot_plays_to_the_end(store: Store) -> None:
    room = Classroom(store)
    code = room.open_table("star", 3, move_limit=90)
    ann, ann_t, seat_a = room.join_table(code, "Ann")
    ben, ben_t, seat_b = room.join_table(code, "Ben")
    assert (seat_a, seat_b) == (0, 1)
    with pytest.raises(NotAllowedError):
        room.start_table(code, ben, ann_t)
    state = room.start_table(code, ann, ann_t)
    assert state.is_bot(2) and state.started
    from mathgames.halma.bots import GreedyBot

    players = {0: (ann, ann_t), 1: (ben, ben_t)}
    while not state.is_over:
        if state.is_bot(state.to_move):
            state = room.bot_step(state)
            continue
        pid, token = players[state.to_move]
        other_pid, other_t = players[1 - state.to_move]
        with pytest.raises(IllegalMoveError):
            room.move(code, other_pid, other_t, "pass")  # out of turn
        text = str(GreedyBot(seed=state.ply).choose(state.game))
        state = room.move(code, pid, token, text, state=state)
    replay = room.load_table(code)
    assert replay.is_over and replay.moves == state.moves
    assert replay.game.result().over


def play_to_the_end(room: Classroom, code: str, state: TableState,
                    players: dict[int, tuple[str, str]]) -> TableState:
    """Play a table's game to its end: the bots' seats by the bots, each student's seat
    (``players``: seat -> id and token) by the greedy bot's moves."""
    from mathgames.halma.bots import GreedyBot

    while not state.is_over:
        if state.is_bot(state.to_move):
            state = room.bot_step(state)
        else:
            pid, token = players[state.to_move]
            state = room.move(code, pid, token, str(GreedyBot(seed=1).choose(state.game)),
                              state=state)
    return state


def ann_and_ben_started(room: Classroom) -> tuple[str, TableState, tuple[str, str],
                                                    tuple[str, str]]:
    """A short Chinese checkers table started by Ann and Ben, a random bot in the third
    seat: its code, state, and Ann's and Ben's ids and tokens."""
    code = room.open_table("star", 3, move_limit=60, placement=SHORT_STAR)
    ann, ann_t, _ = room.join_table(code, "Ann")
    ben, ben_t, _ = room.join_table(code, "Ben")
    return code, room.start_table(code, ann, ann_t, level="random"), (ann, ann_t), (ben, ben_t)


def test_the_same_players_play_again_at_a_table(store: Store) -> None:
    room = Classroom(store)
    code, state, (ann, ann_t), (ben, ben_t) = ann_and_ben_started(room)
    with pytest.raises(IllegalMoveError, match="not over"):
        room.play_again(code, ann, ann_t)  # not before the end
    assert store.last_seq(code) == state.seq
    state = play_to_the_end(room, code, state, {0: (ann, ann_t), 1: (ben, ben_t)})
    with pytest.raises(NotAllowedError):
        room.play_again(code, ann, ben_t)
    assert store.last_seq(code) == state.seq
    new, ann2, ann2_t = room.play_again(code, ann, ann_t)
    # the same game, settings and class, a fresh shuffle; Ann and the bot in their seats
    again = room.load_table(new)
    assert new != code and room.load_table(code).next_table == new
    assert {k: v for k, v in again.settings.items() if k != "seed"} == {
        k: v for k, v in state.settings.items() if k != "seed"}
    assert again.seat_of(ann2) == 0 and again.player_name(0) == "Ann"
    assert again.seats[1] is None and again.seats[2] == {"bot": True, "level": "random"}
    assert not again.started
    with pytest.raises(NotAllowedError):  # following needs the old table's pass too
        room.follow(room.load_table(code), ben, ann_t)
    # Ben asking too (his page had not seen Ann's) sits down at the same new table
    assert room.play_again(code, ben, ben_t)[0] == new
    again = room.load_table(new)
    assert again.player_name(1) == "Ben" and not again.free_seats()
    # the old table's link is written once, by the first to ask
    with pytest.raises(IllegalMoveError):
        room.load_table(code).apply({"type": "again", "table": new})
    room.start_table(new, ann2, ann2_t)
    assert room.load_table(new).started


def test_two_players_asking_to_play_again_at_once_end_at_one_table(store: Store) -> None:
    room = Classroom(store)
    code, state, (ann, ann_t), (ben, ben_t) = ann_and_ben_started(room)
    play_to_the_end(room, code, state, {0: (ann, ann_t), 1: (ben, ben_t)})
    # Ben's request has opened its new table when Ann's lands first
    opened: list[str] = []
    real_open = room.open_table

    def open_table(*args: object, **kwargs: object) -> str:
        new = real_open(*args, **kwargs)  # type: ignore[arg-type]
        opened.append(new)
        if len(opened) == 1:
            opened.append(room.play_again(code, ann, ann_t)[0])
        return new

    room.open_table = open_table  # type: ignore[method-assign]
    new, ben2, _ben2_t = room.play_again(code, ben, ben_t)
    bens, anns = opened[0], opened[2]
    assert opened[1] == anns and new == anns != bens
    assert room.load_table(code).next_table == anns
    again = room.load_table(anns)
    assert again.player_name(0) == "Ann" and again.player_name(1) == "Ben"
    assert again.seat_of(ben2) == 1 and not again.free_seats()
    # the table opened for Ben's request, which nobody was shown, is gone from the store
    with pytest.raises(UnknownSessionError):
        store.session(bens)
    assert bens not in {info.code for info in store.sessions("table")}


def test_a_student_leaves_a_table(store: Store) -> None:
    room = Classroom(store)
    code = room.open_table("star", 3, move_limit=60, placement=SHORT_STAR)
    ann, ann_t, _ = room.join_table(code, "Ann")
    ben, ben_t, _ = room.join_table(code, "Ben")
    with pytest.raises(NotAllowedError):
        room.leave_table(code, ben, ann_t)
    # before the start the seat is free again, for someone else
    state = room.leave_table(code, ben, ben_t)
    assert state.seats[1] is None and state.free_seats() == [1, 2]
    cy, cy_t, seat = room.join_table(code, "Cy")
    assert seat == 1
    state = room.start_table(code, ann, ann_t)
    # during the game a bot plays on in the seat of whoever leaves, at their turn too
    assert state.to_move == 0
    state = room.leave_table(code, ann, ann_t)
    assert state.is_bot(0) and state.player_name(1) == "Cy"
    assert state.seats[0] == {"bot": True, "level": state.bot_level}  # the table's own level
    with pytest.raises(NotAllowedError):  # the pass is gone with the seat
        room.move(code, ann, ann_t, "pass")
    ply = state.ply
    state = room.bot_step(state)
    assert state.ply == ply + 1
    assert room.load_table(code).is_bot(0)  # as every page replays it
    state = play_to_the_end(room, code, state, {1: (cy, cy_t)})
    # after the game, leaving changes nothing at the table
    before = store.last_seq(code)
    assert room.leave_table(code, cy, cy_t).player_name(1) == "Cy"
    assert store.last_seq(code) == before


def test_a_table_s_bots_play_at_its_level(store: Store) -> None:
    from mathgames.triomino.bots import LEVELS

    room = Classroom(store)
    with pytest.raises(InvalidMoveError, match="no bot level"):
        room.open_table("halma", 2, bots="grandmaster")
    code = room.open_table("triomino", 2, bots="easy")
    ann, ann_t, _ = room.join_table(code, "Ann")
    state = room.start_table(code, ann, ann_t)
    assert state.seats[1] == {"bot": True, "level": "easy"}
    checked = 0
    while checked < 3:
        if state.is_bot(state.to_move):  # the easy level's own bot, seeded by table and ply
            seed = int(state.settings["seed"]) * 1000 + state.ply
            expected = triomino_text(LEVELS["easy"].make(seed).choose(state.game))
            state = room.bot_step(state)
            assert state.moves[-1] == expected
            checked += 1
        else:
            state = room.move(code, ann, ann_t, state.bot_move(), state=state)
    # a bot seat of an earlier version's table ("greedy") still plays; an unknown one is refused
    old = TableState("X", {"game": "star", "seats": 2})
    old.apply({"type": "bot", "seat": 1, "level": "greedy"})
    with pytest.raises(InvalidMoveError):
        old.apply({"type": "bot", "seat": 0, "level": "x" * 40})
    assert old.seats[0] is None


def test_the_end_of_a_triomino_round_waits_for_a_student_to_deal(store: Store) -> None:
    room = Classroom(store)
    code = room.open_table("triomino", 3, seed=7)
    ann, ann_t, _ = room.join_table(code, "Ann")
    state = room.start_table(code, ann, ann_t)
    while state.game.phase == "play":
        if state.bot_to_move:
            state = room.bot_step(state)
        else:
            state = room.move(code, ann, ann_t, state.bot_move(), state=state)
    assert state.game.phase == "round_over" and state.is_bot(state.to_move)
    # a bot's turn to deal, but Ann is at the table: the bots wait for her
    assert not state.bot_to_move and state.may_move(0)
    before = store.last_seq(code)
    assert room.bot_step(state).seq == before == store.last_seq(code)
    with pytest.raises(IllegalMoveError, match="the round is over"):
        room.move(code, ann, ann_t, "draw", state=state)
    state = room.move(code, ann, ann_t, "next", state=state)  # not her turn, yet hers to deal
    assert state.game.phase == "play" and state.game.round == 2
    assert room.load_table(code).moves == state.moves  # as every page replays it
    # a table of an earlier version, where the bot dealt at once, replays as it was
    old = room.load_table(code)
    seats = list(old.seats)
    replay = TableState(code, old.settings)
    for seat, entry in enumerate(seats):
        replay.apply({"type": "bot", "seat": seat} if entry and entry.get("bot") else {
            "type": "join", "seat": seat, "pid": "a", "name": "Ann", "token_hash": "h"})
    replay.apply({"type": "start"})
    for ply, text in enumerate(old.moves[:-1]):
        replay.apply({"type": "move", "seat": replay.to_move, "ply": ply, "move": text})
    replay.apply({"type": "move", "seat": replay.to_move, "ply": len(old.moves) - 1,
                  "move": "next"})
    assert replay.game.round == 2 and replay.game.hands == state.game.hands
    # once nobody but bots sits there, a bot deals
    while state.game.phase == "play":
        if state.bot_to_move:
            state = room.bot_step(state)
        else:
            state = room.move(code, ann, ann_t, state.bot_move(), state=state)
    assert state.game.phase == "round_over"
    state = room.leave_table(code, ann, ann_t, state=state)
    assert state.bot_to_move
    state = room.bot_step(state)
    assert state.game.phase == "play" and state.game.round == 3


def test_table_refuses_illegal_moves_and_forged_tokens(store: Store) -> None:
    room = Classroom(store)
    code = room.open_table("halma", 2)
    ann, ann_t, _ = room.join_table(code, "Ann")
    with pytest.raises(IllegalMoveError):
        room.move(code, ann, ann_t, "a1-a2")  # not begun
    room.start_table(code, ann, ann_t)
    before = store.last_seq(code)
    with pytest.raises(MathgamesError):
        room.move(code, ann, ann_t, "a1-p16")  # the rules core says no
    with pytest.raises(NotAllowedError):
        room.move(code, ann, "forged", "a1-a2")
    assert store.last_seq(code) == before
    with pytest.raises(IllegalMoveError):
        room.join_table(code, "Late")


def test_triomino_table_hands_stay_in_the_log_only_as_a_seed(store: Store) -> None:
    room = Classroom(store)
    code = room.open_table("triomino", 2)
    ann, ann_t, _ = room.join_table(code, "Ann")
    state = room.start_table(code, ann, ann_t)
    for _ in range(12):
        if state.is_over:
            break
        state = room.bot_step(state) if state.is_bot(state.to_move) else room.move(
            code, ann, ann_t, state.bot_move(), state=state)
    replay = room.load_table(code)
    assert replay.moves == state.moves and len(replay.moves) == 12
    assert replay.game.hand(0) == state.game.hand(0)
    stored = str([e.data for e in store.events(code)])
    hand = [str(t) for t in state.game.hand(1)]
    assert hand and not any(t in stored for t in hand)  # tiles never written to the log


# -- the pure logic ---------------------------------------------------------------------------

@given(st.lists(st.integers(1, 13), min_size=0, max_size=25),
       st.lists(st.permutations(range(25)), min_size=1, max_size=3))
def test_class_grids_hold_the_called_numbers(calls: list[int], orders: list[list[int]]) -> None:
    state = ClassState("K3M9T")
    state.apply({"type": "open", "teacher_hash": hash_token("t")})
    for i, _order in enumerate(orders):
        state.apply({"type": "join", "pid": f"p{i}", "name": f"Kid {chr(97 + i)}",
                     "token_hash": "h"})
    for card in calls:
        try:
            state.apply({"type": "call", "card": card})
        except IllegalMoveError:
            continue
        k = len(state.calls) - 1
        for i, order in enumerate(orders):
            state.apply({"type": "place", "pid": f"p{i}", "index": k, "cell": order[k]})
    for i, order in enumerate(orders):
        student = state.students[f"p{i}"]
        assert student.cells == order[:len(state.calls)]
        assert sorted(v for v in student.grid if v is not None) == sorted(state.calls)
    assert all(state.calls.count(v) <= 4 for v in state.calls)


@given(st.lists(st.integers(0, 300), max_size=40))
def test_ranks_are_shared_by_equal_points(points: list[int]) -> None:
    standings = rank((f"p{i}", f"n{i}", p) for i, p in enumerate(points))
    assert [s.points for s in standings] == sorted(points, reverse=True)
    for i, s in enumerate(standings):
        assert s.rank == 1 + sum(1 for p in points if p > s.points)
        assert i + 1 >= s.rank


def test_refused_events_leave_the_state_as_it_was() -> None:
    state = ClassState("K3M9T")
    state.apply({"type": "join", "pid": "a", "name": "Ann", "token_hash": "h"})
    for bad in ({"type": "call", "card": "7"}, {"type": "place", "pid": "a", "index": 0,
                "cell": 0}, {"type": "join", "pid": "b", "name": "ann", "token_hash": "h"},
                {"type": "uncall", "index": 0}, {"type": "uncall", "index": "0"},
                {"type": "unplace", "pid": "a", "index": 0}, {"type": "unplace", "pid": "a"},
                {"type": "unplace", "pid": "zz", "index": 0},
                {"type": "nonsense"}, ["not", "a", "dict"]):
        with pytest.raises(MathgamesError):
            state.apply(bad)  # type: ignore[arg-type]
    assert state.calls == [] and list(state.students) == ["a"]
    # a bad event in the log is skipped by every replay alike
    folded = ClassState("K3M9T").fold([Event(1, {"type": "call", "card": 99}),
                                       Event(2, {"type": "call", "card": 9})])
    assert folded.calls == [9] and folded.seq == 2


def test_a_forged_event_is_quoted_short_in_its_refusal() -> None:
    long = "x" * 100
    cut = repr(long)[:39] + "…"
    for state, name in ((ClassState("K3M9T"), "class"),
                        (TableState("X", {"game": "star", "seats": 2}), "table")):
        for kind, shown in ((long, cut), ({"a": 1}, "{'a': 1}")):
            with pytest.raises(InvalidMoveError) as info:
                state.apply({"type": kind})
            assert str(info.value) == f"unknown {name} event {shown}"
    with pytest.raises(InvalidMoveError) as info:
        TableState("X", {"game": "star", "seats": 2}).apply(
            {"type": "bot", "seat": 0, "level": long})
    assert str(info.value) == f"no bot level {cut}"


@pytest.mark.parametrize("lang", ["pl", "cs", "ru"])
def test_a_student_hears_a_refusal_in_the_page_s_language(lang: str) -> None:
    """What a student may meet (a second tab placing the same number, a removed name, a
    tap taken back too late) is said in the page's language, not in English."""
    state = ClassState("K3M9T")
    state.apply({"type": "join", "pid": "a", "name": "Ann", "token_hash": "h"})
    state.apply({"type": "call", "card": 7})
    state.apply({"type": "place", "pid": "a", "index": 0, "cell": 3})
    state.apply({"type": "call", "card": 8})
    refused = ({"type": "place", "pid": "a", "index": 0, "cell": 4},
               {"type": "place", "pid": "a", "index": 2, "cell": 4},
               {"type": "place", "pid": "zz", "index": 1, "cell": 4},
               {"type": "unplace", "pid": "a", "index": 0},
               {"type": "remove", "pid": "zz"})
    english = []
    for event in refused:
        with pytest.raises(IllegalMoveError) as error:
            state.apply(event)
        english.append(str(error.value))
    before = set_language(lang)
    try:
        for event, said in zip(refused, english, strict=True):
            with pytest.raises(IllegalMoveError) as error:
                state.apply(event)
            assert str(error.value) != said, f"{lang}: {said!r} is not translated"
    finally:
        set_language(before)
    assert english[0] == "Ann has already placed number 1 of the calls"


def test_names_keep_letters_of_every_alphabet() -> None:
    assert check_name("Jiří") == "Jiří" and check_name("Анна-Мария") == "Анна-Мария"
    assert check_name("  Mary   Ann ") == "Mary Ann"


def test_table_settings_are_checked() -> None:
    with pytest.raises(InvalidMoveError):
        TableState("X", {"game": "halma", "seats": 6})
    table = TableState("X", {"game": "star", "seats": 3, "placement": SHORT_STAR})
    assert table.game.pieces_of(0) == ["e5"]


def test_bots_score_the_same_numbers() -> None:
    deal = shuffled_deck(3)[:25]
    scores = bot_scores(deal)
    assert set(scores) == {"random", "greedy", "strong"}
    assert all(isinstance(v, int) and v >= 0 for v in scores.values())
    assert bot_scores(deal[:10]) == {}
