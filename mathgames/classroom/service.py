"""Checked actions on classes and tables: token, rules and order, then append.

Every action a kernel takes for a browser goes through :class:`Classroom`: it
reads the new events, checks the actor's token against the hash in the log,
checks the action with the session logic (and so with the game's rules core),
and appends it with the sequence number it has seen. When another kernel
appended first, it reads again and checks again; a refused action raises a
typed error with a message for the user and appends nothing.

>>> import tempfile, pathlib
>>> from mathgames.classroom.store import SqliteStore
>>> folder = tempfile.TemporaryDirectory()
>>> room = Classroom(SqliteStore(pathlib.Path(folder.name) / "c.sqlite3"))
>>> code, teacher = room.open_class(seed=3)
>>> ann, ann_token = room.join_class(code, "Ann")
>>> state = room.call(code, teacher)
>>> state = room.place(code, ann, ann_token, 0, 12)
>>> state.students[ann].grid[12] == state.calls[0]
True
>>> room.call(code, ann_token)
Traceback (most recent call last):
...
mathgames.classroom.session.NotAllowedError: only the teacher who opened this class may do that: ...
>>> room.store.close()
>>> folder.cleanup()
"""

from __future__ import annotations

import os
import random
import secrets
import time
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from mathgames.classroom.class_state import ClassState
from mathgames.classroom.games import table_game
from mathgames.classroom.session import NotAllowedError, check_name, shuffled_seed
from mathgames.classroom.store import (
    SessionInfo,
    Store,
    StoreConflict,
    StoreError,
    UnknownSessionError,
    normalize_code,
)
from mathgames.classroom.table_state import TABLE_GAMES, TableState
from mathgames.classroom.tokens import check_token, hash_token, new_token
from mathgames.core.errors import IllegalMoveError
from mathgames.core.i18n import translator

__all__ = ["KEEP_DAYS", "Classroom", "keep_days"]

_ = translator("classroom")
State = TypeVar("State", ClassState, TableState)
MAX_TRIES = 200
#: How far the clocks of a school's servers may differ, in seconds: a class's tables are
#: looked for among the tables opened from this long before the class on.
CLOCK_SLACK = 3600.0
#: How many days the store keeps a class or a table (its students' first names, grids and
#: moves) after the last thing done in it, unless ``$MATHGAMES_KEEP_DAYS`` says otherwise
#: (a number, or ``forever``).
KEEP_DAYS = 30.0


def keep_days() -> float | None:
    """How many days classes and tables are kept (``None``: for ever), from
    ``$MATHGAMES_KEEP_DAYS`` or :data:`KEEP_DAYS`; a setting that is neither a positive
    number nor ``forever`` is refused with a message that names it.

    >>> import os
    >>> kept = os.environ.pop("MATHGAMES_KEEP_DAYS", None)
    >>> keep_days()
    30.0
    >>> os.environ["MATHGAMES_KEEP_DAYS"] = "7"; keep_days()
    7.0
    >>> os.environ["MATHGAMES_KEEP_DAYS"] = "forever"; keep_days() is None
    True
    >>> os.environ["MATHGAMES_KEEP_DAYS"] = "a week"; keep_days()
    Traceback (most recent call last):
    ...
    mathgames.classroom.store.StoreError: MATHGAMES_KEEP_DAYS='a week': write a number of days (such as 30) or forever
    >>> _ = os.environ.pop("MATHGAMES_KEEP_DAYS")
    >>> if kept is not None: os.environ["MATHGAMES_KEEP_DAYS"] = kept
    """  # noqa: E501
    text = os.environ.get("MATHGAMES_KEEP_DAYS", "").strip()
    if not text:
        return KEEP_DAYS
    if text.lower() == "forever":
        return None
    try:
        days = float(text)
    except ValueError:
        days = float("nan")
    if not days > 0 or days == float("inf"):
        raise StoreError(f"MATHGAMES_KEEP_DAYS={text!r}: write a number of days (such as 30) "
                         "or forever")
    return days


class Classroom:
    """Classes and tables over one store (see the module's docstring)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # -- reading -----------------------------------------------------------------------------
    def load_class(self, code: str) -> ClassState:
        """A class rebuilt from its log (raises for an unknown code or a table's code)."""
        code = normalize_code(code)
        try:
            info = self.store.session(code)
        except UnknownSessionError:  # mistyped, or deleted: said in the page's language
            raise UnknownSessionError(_("There is no class {code}: check the code").format(
                code=code)) from None
        if info.kind != "class":
            raise StoreError(_("{code} is a table, not a class").format(code=code))
        return ClassState(code, info.settings).fold(self.store.events(code))

    def load_table(self, code: str) -> TableState:
        """A table rebuilt from its log."""
        code = normalize_code(code)
        try:
            info = self.store.session(code)
        except UnknownSessionError:
            raise UnknownSessionError(_("There is no table {code}: check the code").format(
                code=code)) from None
        if info.kind != "table":
            raise StoreError(_("{code} is a class, not a table").format(code=code))
        return TableState(code, info.settings).fold(self.store.events(code))

    def refresh(self, state: State) -> State:
        """``state`` with the events appended since it was read."""
        return state.fold(self.store.events(state.code, state.seq))

    def tables_of(self, class_code: str,
                  known: dict[str, TableState] | None = None) -> list[TableState]:
        """The tables opened in a class, oldest first. ``known`` (code -> state, kept by the
        caller from one call to the next) spares replaying every game: a table in it reads
        only its new moves, and a new table is added to it."""
        known = {} if known is None else known
        tables = []
        for info in self._tables_info(class_code):
            if info.code in known:
                self.refresh(known[info.code])
            else:
                known[info.code] = self.load_table(info.code)
            tables.append(known[info.code])
        return tables

    def _tables_info(self, class_code: str) -> list[SessionInfo]:
        """The sessions of a class's tables, oldest first."""
        class_code = normalize_code(class_code)
        # A class's tables are opened after the class: only those are read, not every
        # table the store has ever held (less an hour, for servers whose clocks differ).
        since = self.store.session(class_code).created - CLOCK_SLACK
        return [info for info in self.store.sessions("table", since=since)
                if info.settings.get("class") == class_code]

    # -- keeping and deleting ------------------------------------------------------------------
    def forget_old(self, now: float | None = None) -> int:
        """Delete the classes and tables with nothing done for :func:`keep_days` (done
        whenever a class or a table is opened); return how many went."""
        days = keep_days()
        if days is None:
            return 0
        return self.store.forget_idle((time.time() if now is None else now) - days * 86400)

    def delete_class(self, code: str, teacher_token: str) -> int:
        """The teacher deletes the class and the tables opened in it, for good: the
        students' first names, grids and moves leave the store (after the results are
        downloaded). Only the teacher may; the students' pages learn it from their feeds.
        Returns how many sessions went (the class and its tables).

        >>> import tempfile, pathlib
        >>> from mathgames.classroom.store import SqliteStore
        >>> folder = tempfile.TemporaryDirectory()
        >>> room = Classroom(SqliteStore(pathlib.Path(folder.name) / "c.sqlite3"))
        >>> code, teacher = room.open_class(seed=3)
        >>> table = room.open_table("halma", 2, class_code=code)
        >>> room.delete_class(code, teacher)
        2
        >>> room.load_class(code)
        Traceback (most recent call last):
        ...
        mathgames.classroom.store.UnknownSessionError: There is no class ...: check the code
        >>> room.store.close(); folder.cleanup()
        """
        state = self.load_class(code)
        self.check_teacher(state, teacher_token)
        return self.store.forget([state.code, *(info.code for info in
                                                self._tables_info(state.code))])

    # -- the one way to append ----------------------------------------------------------------
    def _act(self, state: State, build: Callable[[State], Mapping[str, Any]]) -> State:
        """Append the event ``build`` makes for ``state`` (brought up to date first), tried on
        a copy: the new state, while ``state`` itself keeps only what the store holds. An
        event the store refuses or cannot keep (another writer came first, the database is
        not answering) changes nothing; after a conflict the event is built again on the
        events that came first."""
        for attempt in range(MAX_TRIES):
            self.refresh(state)
            event = build(state)  # checks who acts (raises NotAllowedError)
            trial = state.copy()
            trial.apply(event)  # checks the rules; raises when refused
            try:
                trial.seq = self.store.append(state.code, state.seq, event)
            except StoreConflict:
                # Many writers raced for one number: wait a moment, longer each time.
                time.sleep(random.uniform(0, 0.002 * min(attempt + 1, 20)))
                continue
            return trial  # type: ignore[return-value]
        raise StoreError(_("the store is too busy: try again"))  # pragma: no cover

    # -- a class -----------------------------------------------------------------------------
    def open_class(self, seed: int | None = None) -> tuple[str, str]:
        """Open a Matematiko class: its code and the teacher's secret token."""
        token = new_token()
        self.forget_old()
        settings = {"game": "matematiko", "seed": shuffled_seed() if seed is None else seed}
        code = self.store.create("class", settings)

        def build(_s: ClassState) -> dict[str, Any]:
            return {"type": "open", "teacher_hash": hash_token(token)}

        self._act(ClassState(code, settings), build)
        return code, token

    def join_class(self, code: str, name: str) -> tuple[str, str]:
        """Join a class by its code: the new student's id and secret token."""
        state = self.load_class(code)
        name = check_name(name)
        pid, token = secrets.token_hex(6), new_token()
        self._act(state, lambda _s: {"type": "join", "pid": pid, "name": name,
                                     "token_hash": hash_token(token)})
        return pid, token

    def check_student(self, state: ClassState, pid: object, token: object) -> None:
        """Raise :class:`NotAllowedError` unless ``token`` is the student ``pid``'s."""
        student = state.students.get(pid) if isinstance(pid, str) else None
        if student is None or not check_token(token, student.token_hash):
            raise NotAllowedError(_("this page's pass for the class is not valid: join again"))

    def check_teacher(self, state: ClassState, token: object) -> None:
        if not check_token(token, state.teacher_hash):
            raise NotAllowedError(_("only the teacher who opened this class may do "
                                     "that: open a class of your own"))

    def call(self, code: str, teacher_token: str, card: int | None = None,
             state: ClassState | None = None) -> ClassState:
        """The teacher calls a number: ``card`` typed from a real deck, or the class's next."""
        def build(s: ClassState) -> dict[str, Any]:
            self.check_teacher(s, teacher_token)
            return {"type": "call", "card": s.next_card() if card is None else card}

        return self._act(state or self.load_class(code), build)

    def uncall(self, code: str, teacher_token: str, index: int,
               state: ClassState | None = None) -> ClassState:
        """The teacher takes back call number ``index`` (0-based), which must be the last:
        a card typed wrong, or called too soon. Students who placed it get the cell
        back, and the card goes back to the deck (a card the class's deck called comes
        again next)."""
        def build(s: ClassState) -> dict[str, Any]:
            self.check_teacher(s, teacher_token)
            return {"type": "uncall", "index": index}

        return self._act(state or self.load_class(code), build)

    def again(self, code: str, teacher_token: str,
              state: ClassState | None = None) -> ClassState:
        """The teacher starts a new game for the same class (once all 25 numbers are
        called): a freshly shuffled deck, the same students with empty grids."""
        def build(s: ClassState) -> dict[str, Any]:
            self.check_teacher(s, teacher_token)
            return {"type": "again", "seed": shuffled_seed()}

        return self._act(state or self.load_class(code), build)

    def remove_student(self, code: str, teacher_token: str, pid: str,
                       state: ClassState | None = None) -> ClassState:
        """The teacher takes student ``pid`` off the class (a name that should not be on
        the projector): their pass stops working and their name is free again."""
        def build(s: ClassState) -> dict[str, Any]:
            self.check_teacher(s, teacher_token)
            return {"type": "remove", "pid": pid}

        return self._act(state or self.load_class(code), build)

    def place(self, code: str, pid: str, token: str, index: int, cell: int,
              state: ClassState | None = None) -> ClassState:
        """A student places call number ``index`` (0-based) in ``cell`` (0-24)."""
        def build(s: ClassState) -> dict[str, Any]:
            self.check_student(s, pid, token)
            return {"type": "place", "pid": pid, "index": index, "cell": cell}

        return self._act(state or self.load_class(code), build)

    def unplace(self, code: str, pid: str, token: str, index: int,
                state: ClassState | None = None) -> ClassState:
        """A student takes back their placement of call number ``index`` (0-based),
        which must be the last number called: a tap on the wrong cell, mended before
        the next number comes."""
        def build(s: ClassState) -> dict[str, Any]:
            self.check_student(s, pid, token)
            return {"type": "unplace", "pid": pid, "index": index}

        return self._act(state or self.load_class(code), build)

    # -- a table -----------------------------------------------------------------------------
    def open_table(self, game: str, seats: int, class_code: str | None = None,
                   **settings: Any) -> str:
        """Open a table for ``game`` ("halma", "star" or "triomino") with ``seats`` seats.

        ``settings`` may add ``bots`` (the level of the bots that take the empty
        seats: ``"easy"``, ``"medium"`` or ``"hard"``), ``move_limit``, ``placement``
        (a custom Halma position), ``fill_rule`` (Halma's, the bounded one by default:
        :data:`mathgames.halma.game.FILL_RULES`) or ``rules`` (a Triomino preset).
        """
        if game not in TABLE_GAMES or seats not in TABLE_GAMES[game]:
            raise IllegalMoveError(_("this game is not played by {n} players").format(n=seats))
        settings = table_game(game).open_settings(settings)
        body = {"game": game, "seats": seats, "seed": shuffled_seed(), **settings}
        if class_code:
            body["class"] = normalize_code(class_code)
        TableState("check", body)  # the rules core accepts these settings
        self.forget_old()
        return self.store.create("table", body)

    def join_table(self, code: str, name: str, seat: int | None = None
                   ) -> tuple[str, str, int]:
        """Take a seat (the first free one by default): id, token and seat."""
        state = self.load_table(code)
        name = check_name(name)
        pid, token = secrets.token_hex(6), new_token()

        def build(s: TableState) -> dict[str, Any]:
            free = s.free_seats()
            if not free or s.started:
                raise IllegalMoveError(_("this table has no free seat"))
            return {"type": "join", "seat": free[0] if seat is None else seat, "pid": pid,
                    "name": name, "token_hash": hash_token(token)}

        state = self._act(state, build)
        taken = state.seat_of(pid)
        assert taken is not None
        return pid, token, taken

    def leave_table(self, code: str, pid: str, token: str,
                    state: TableState | None = None) -> TableState:
        """A student leaves the table: their seat is free again before the start, and a bot
        plays on in it during the game (the others are not left waiting); after the game
        nothing at the table changes."""
        state = state or self.load_table(code)
        self.refresh(state)
        self.check_player(state, pid, token)
        if state.is_over:
            return state

        def build(s: TableState) -> dict[str, Any]:
            return {"type": "leave", "seat": self.check_player(s, pid, token)}

        return self._act(state, build)

    def play_again(self, code: str, pid: str, token: str,
                   state: TableState | None = None) -> tuple[str, str, str]:
        """A seated player asks for another game with the same players once the game is over:
        a new table with the same game and settings (a fresh shuffle), the same bots in the
        same seats, and this player in their seat. The old table's ``again`` event tells the
        others' pages, which take their own seats (:meth:`follow`). If another player asked
        first, this one follows them (a table opened for a request that lost the race is
        deleted at once). The new table's code, this player's id and token.
        """
        state = state or self.load_table(code)
        self.refresh(state)
        self.check_player(state, pid, token)
        if state.next_table is None:
            if not state.is_over:
                raise IllegalMoveError(_("the game is not over yet"))
            settings = {k: v for k, v in state.settings.items()
                        if k not in ("game", "seats", "seed", "class")}
            new = self.open_table(state.game_name, len(state.seats),
                                  state.settings.get("class"), **settings)
            def again(s: TableState) -> dict[str, Any]:
                self.check_player(s, pid, token)
                return {"type": "again", "table": new}

            try:
                state = self._act(state, again)
            except IllegalMoveError:  # another player's new table came first: theirs,
                self.store.forget([new])  # and this one, never shown to anyone, goes
                state = self.load_table(state.code)
            else:
                table = self.load_table(new)
                for bot_seat, entry in enumerate(state.seats):
                    if entry and entry.get("bot"):
                        table = self._act(table, _same_bot(bot_seat, entry))
        return self.follow(state, pid, token)

    def follow(self, state: TableState, pid: str, token: str) -> tuple[str, str, str]:
        """Take the same seat, under the same name, at the table where ``state``'s players
        play again (with this table's pass): the new table's code, the new id and token."""
        seat = self.check_player(state, pid, token)
        if state.next_table is None:
            raise IllegalMoveError(_("the game is not over yet"))
        name = (state.seats[seat] or {}).get("name", "")
        pid, token, _taken = self.join_table(state.next_table, name, seat)
        return state.next_table, pid, token

    def check_player(self, state: TableState, pid: object, token: object) -> int:
        """The seat of ``pid`` if ``token`` is theirs; else :class:`NotAllowedError`."""
        seat = state.seat_of(pid) if isinstance(pid, str) else None
        if seat is None or not check_token(token, (state.seats[seat] or {}).get("token_hash")):
            raise NotAllowedError(_("this page's pass for the table is not valid: join again"))
        return seat

    def start_table(self, code: str, pid: str, token: str, level: str | None = None,
                    state: TableState | None = None) -> TableState:
        """A seated player starts the game; bots take the empty seats (of ``level``, by
        default the table's own, :attr:`TableState.bot_level`)."""
        state = state or self.load_table(code)
        level = level or state.bot_level

        def bot(s: TableState) -> dict[str, Any]:
            self.check_player(s, pid, token)
            return {"type": "bot", "seat": s.free_seats()[0], "level": level}

        while True:
            self.refresh(state)
            free = state.free_seats()
            if not free:
                break
            state = self._act(state, bot)

        def build(s: TableState) -> dict[str, Any]:
            self.check_player(s, pid, token)
            return {"type": "start"}

        return self._act(state, build)

    def move(self, code: str, pid: str, token: str, text: str,
             state: TableState | None = None) -> TableState:
        """A player's move (checked by the rules core) at their turn."""
        def build(s: TableState) -> dict[str, Any]:
            seat = self.check_player(s, pid, token)
            if not s.may_move(seat):
                raise IllegalMoveError(_("it is not your turn"))
            return {"type": "move", "seat": seat, "ply": s.ply, "move": text}

        return self._act(state or self.load_table(code), build)

    def bot_step(self, state: TableState) -> TableState:
        """Play the bot's move if a bot moves next (:attr:`TableState.bot_to_move`; any
        kernel at the table may)."""
        self.refresh(state)
        if not state.bot_to_move:
            return state
        ply, seat, text = state.ply, state.to_move, state.bot_move()

        def build(s: TableState) -> dict[str, Any]:
            if s.ply != ply:  # someone else played it: nothing to do
                raise _AlreadyPlayed
            return {"type": "move", "seat": seat, "ply": ply, "move": text}

        try:
            return self._act(state, build)
        except _AlreadyPlayed:
            return self.load_table(state.code)


class _AlreadyPlayed(Exception):
    pass


def _same_bot(seat: int, entry: Mapping[str, Any]) -> Callable[[TableState], dict[str, Any]]:
    """The builder of a ``bot`` event: the bot of ``entry`` (a seat of the table before)
    in ``seat`` at the next table."""
    def build(_s: TableState) -> dict[str, Any]:
        return {"type": "bot", "seat": seat, "level": entry.get("level", "greedy")}

    return build
