"""A table for Halma, Chinese checkers or Triomino, played from each player's own device.

A student opens a table (it gets its own code) or joins one by its code; 2-6
seats are taken by students, and a bot takes each seat left empty when the game
starts. Every move is checked by the game's rules core and appended to the
table's log in the shared store; every page at the table follows the log live.
The page never asks which game it shows: the game's adapter
(:mod:`mathgames.classroom.games`, ``state.adapter``) gives its views, keys, clicks
and told moves, and the page composes the shared board widget with them. It never
sends a player another player's Triomino tiles: the hands exist only in the kernels,
rebuilt from the table's seed and moves.
``tests/classroom/test_classroom_pages.py`` drives it from Python.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import ipywidgets as w

from mathgames.classroom.games import GAMES, LOOK_KEYS, Pick, Reply
from mathgames.classroom.store import Event, StoreError, UnknownSessionError, normalize_code
from mathgames.classroom.table_state import (
    TABLE_BOT_LEVELS,
    TABLE_GAMES,
    TableState,
    game_title,
    level_title,
)
from mathgames.core.board_widget import BoardWidget
from mathgames.core.errors import MathgamesError
from mathgames.core.i18n import translator
from mathgames.core.levels import DEFAULT_LEVEL
from mathgames.core.svg import esc
from mathgames.core.ui_widget import Confirm, EnterSubmits, ZoomButtons, by_pointer
from mathgames.pages.live import (
    LiveFeed,
    classroom,
    message_html,
    query_value,
    read_pass,
)

__all__ = ["STORAGE_KEY", "TablePage"]

_ = translator("classroom")
_t = translator("triomino")  # the Triomino game's own words: its rounds

#: Where the browser keeps the player's pass for the table (local storage).
STORAGE_KEY = "classroom-table"
#: How long a bot waits before it moves (so that people see the previous move).
BOT_DELAY = 0.4


class TablePage(w.VBox):
    """Open or join a table, then play on this device."""

    def __init__(self, table: str | None = None, class_code: str | None = None,
                 settings: dict[str, Any] | None = None, watch: str | None = None) -> None:
        self.room = classroom()
        self.watching = False  # following a table without a seat (see :meth:`watch`)
        self.state: TableState | None = None
        self.pid = ""
        self.token = ""
        self.seat = -1
        self.feed: LiveFeed | None = None
        self.selected: str | None = None
        self.tile: Any = None
        self.rotation = 0
        self.extra_settings = dict(settings or {})
        self._bot_pending = False
        self._said_ply = 0  # the moves up to this ply are told to a screen reader
        self._said_mark = 0  # and the game's moves up to there (its adapter's told_mark)
        # -- the forms
        self.name_input = w.Text(description=_("First name"), placeholder=_("your first name"))
        self.game_choice = w.Dropdown(options=[(game_title(g), g) for g in TABLE_GAMES],
                                      value="star", description=_("Game"))
        self.seats_choice = w.Dropdown(options=[2, 3, 4, 6], value=2, description=_("Seats"))
        self.level_choice = w.Dropdown(options=[(level_title(name), name)
                                                for name in TABLE_BOT_LEVELS],
                                       value=DEFAULT_LEVEL, description=_("Bots"))
        self.game_choice.observe(lambda _c: self._game_changed(), "value")
        self.class_input = w.Text(value=class_code if class_code is not None
                                  else query_value("code"), description=_("Class code"),
                                  placeholder=_("optional"))
        self.open_button = w.Button(description=_("Open a table"), button_style="primary",
                                     layout=w.Layout(width="auto"))
        self.open_button.add_class("mg-open-table")
        self.open_button.on_click(lambda _b: self.open_table())
        self.table_input = w.Text(value=table if table is not None else query_value("table"),
                                  description=_("Table code"))
        self.join_button = w.Button(description=_("Join the table"), button_style="primary",
                                     layout=w.Layout(width="auto"))
        self.join_button.add_class("mg-join-table")
        self.join_button.on_click(lambda _b: self.join_table(self.table_input.value))
        self.watch_button = w.Button(description=_("Watch the table"), icon="eye",
                                     layout=w.Layout(width="auto"))
        self.watch_button.add_class("mg-watch-button")  # no seat: a game over, or a full table
        self.watch_button.on_click(lambda _b: self.watch(self.table_input.value))
        # Enter joins from the table's code (and from the name once a table's code is
        # there), opens a table from the class's code
        self.enter_name = EnterSubmits(lambda: self.table_input.value.strip()
                                       and self.join_button.click(), self.name_input)
        self.enter_join = EnterSubmits(self.join_button, self.table_input)
        self.enter_open = EnterSubmits(self.open_button, self.class_input)
        self.form = w.VBox([
            self.name_input,
            w.HTML(f"<h3>{esc(_('Join a table'))}</h3>"), self.table_input,
            w.HBox([self.join_button, self.watch_button]),
            w.HTML(f"<h3>{esc(_('Or open a new table'))}</h3>"), self.game_choice,
            self.seats_choice, self.level_choice, self.class_input, self.open_button,
            self.enter_name, self.enter_join, self.enter_open])
        self.form.add_class("mg-table-form")
        # -- the table
        self.info = w.HTML("")
        self.info.add_class("mg-table-info")
        self.start_button = w.Button(description=_("Start: bots take the empty seats"),
                                     button_style="success", layout=w.Layout(width="auto"))
        self.start_button.add_class("mg-start-table")
        self.start_button.on_click(lambda _b: self.start())
        self.again_button = w.Button(description=_("Play again at this table"),
                                     button_style="success",
                                     layout=w.Layout(width="auto", align_self="flex-start"))
        self.again_button.add_class("mg-table-again")
        self.again_button.on_click(lambda _b: self.play_again())
        self.leave_button = w.Button(description=_("Leave the table"), layout=w.Layout(
            width="auto", align_self="flex-start", margin="16px 0 0 0"))
        self.leave_button.add_class("mg-table-leave")
        self.leave_button.on_click(lambda _b: self.ask_leave())
        self.leave_confirm = Confirm(
            lambda: _("Leave the table? A bot plays on in your seat."), self.leave,
            lambda: (_("Yes, leave"), _("No")))
        self.leave_confirm.add_class("mg-table-leave-confirm")
        self.message = w.HTML("")
        self.message.add_class("mg-table-message")
        self.status = w.HTML("")
        self.status.add_class("mg-table-status")
        self.board = BoardWidget(label=_("the table"), storage_key=STORAGE_KEY)
        self.board.add_class("mg-table-board")
        self.board.on_cell_click(self.click)
        self.board.on_key(self._key)
        self.board.on_stored(self.rejoin)
        self.rack = BoardWidget(label=_("Your tiles"))
        self.rack.add_class("mg-triomino-rack")  # on a phone: big tiles, slid sideways
        self.rack.on_cell_click(self.pick_tile)
        self.rack.on_key(self._key)
        self.cursor: Any = None  # the keyboard's frame: a Halma cell, or a free Triomino place
        # (the page's choices: ``selected``, ``tile``, ``rotation`` and ``cursor`` go to the
        # game's adapter as one Pick, see :meth:`_pick`)
        self.turn_button = w.Button(description=_("Turn the tile"))
        self.draw_button = w.Button(description=_("Draw"))
        self.pass_button = w.Button(description=_("Pass"))
        self.next_button = w.Button(description=_("Next round"))
        for button, name in ((self.turn_button, "turn"), (self.draw_button, "draw"),
                             (self.pass_button, "pass"), (self.next_button, "next-round")):
            button.add_class(f"mg-table-{name}")
        self.next_button.on_click(lambda _b: self.play_text("next"))
        self.turn_button.on_click(lambda _b: self.turn())
        self.draw_button.on_click(lambda _b: self.play_text("draw"))
        self.pass_button.on_click(lambda _b: self.play_text("pass"))
        self.triomino_box = w.VBox([self.rack, w.HBox([self.turn_button, self.draw_button,
                                                       self.pass_button, self.next_button])])
        # Who plays and whose turn it is beside the board (above it on a phone), so that
        # the whole board, and a Triomino player's tiles below it, fit a projector.
        self.zooms = ZoomButtons(self.board)  # Halma's squares for a finger on a phone
        self.help = w.HTML("")
        self.help.add_class("mg-help")
        self.side = w.VBox([self.info, self.start_button, self.status, self.again_button,
                            self.message, self.zooms, self.help])
        self.side.add_class("mg-table-side")
        # leaving comes last, under the board: it never pushes the board down on a phone;
        # its question above the button, where a projector's screen still shows it
        self.leave_confirm.layout.margin = "16px 0 0 0"
        self.main = w.VBox([self.board, self.triomino_box, self.leave_confirm,
                            self.leave_button])
        self.main.add_class("mg-table-main")
        self.playing = w.HBox([self.side, self.main])
        self.playing.add_class("mg-table-row")
        self.playing.layout.display = "none"
        self.board.layout.display = "none"
        super().__init__([self.form, self.playing])
        self.add_class("mg-table-page")
        self.add_class("mg-app")  # the game pages' sizes for a projector and a phone
        watch = watch if watch is not None else query_value("watch")
        if watch:
            self.watch(watch)

    def _game_changed(self) -> None:
        seats = TABLE_GAMES[self.game_choice.value]
        self.seats_choice.options = list(seats)
        self.seats_choice.value = seats[0]

    def _fail(self, error: Exception) -> None:
        self._tell(str(error))

    def _tell(self, text: str, role: str | None = "alert") -> None:
        """A refusal or a warning (or, with no ``role``, news): shown, and said to a screen
        reader."""
        self.message.value = message_html(text, role)
        self.board.say(text)

    # -- sitting down --------------------------------------------------------------------------
    def open_table(self) -> None:
        """Open a new table and take its first seat."""
        try:
            class_code = self.class_input.value.strip()
            code = self.room.open_table(self.game_choice.value, self.seats_choice.value,
                                        normalize_code(class_code) if class_code else None,
                                        **{"bots": self.level_choice.value,
                                           **self.extra_settings})
        except MathgamesError as error:
            return self._fail(error)
        self.join_table(code)
        return None

    def join_table(self, code: str) -> None:
        """Take the first free seat at table ``code``."""
        try:
            pid, token, _seat = self.room.join_table(normalize_code(code), self.name_input.value)
            state = self.room.load_table(normalize_code(code))
        except MathgamesError as error:
            return self._fail(error)
        self._enter(state, pid, token)
        return None

    def watch(self, code: str) -> None:
        """Follow table ``code`` without a seat, as a teacher does on the projector (the
        link in the teacher's list of tables): the board, who plays, the points, and every
        move as it comes (said to a screen reader too); no tiles and no buttons to play.
        This browser's own pass for a table, if it keeps one, stays as it was."""
        try:
            state = self.room.load_table(normalize_code(code))
        except MathgamesError as error:
            return self._fail(error)
        self.watching = True
        self.add_class("mg-table-watching")
        self._enter(state, "", "")
        return None

    def rejoin(self, kept: str) -> None:
        """Take back this browser's seat after a reload; refuse a pass that is not valid.
        A page that watches a table does not sit down."""
        if self.watching:
            return None
        try:
            data = read_pass(kept, _("This device's pass for the table is damaged: join the "
                                     "table again with its code and your first name"))
            state = self.room.load_table(data["code"])
            self.room.check_player(state, data.get("pid"), data.get("token"))
        except UnknownSessionError:  # its class was deleted: the browser forgets the pass
            self.board.storage_value = ""
            return self._tell(_("This table is no longer on the server: the teacher deleted "
                                "its class."))
        except MathgamesError as error:
            return self._fail(error)
        self._enter(state, data["pid"], data["token"])
        return None

    def _enter(self, state: TableState, pid: str, token: str) -> None:
        self.state, self.pid, self.token = state, pid, token
        self.seat = state.seat_of(pid) if state.seat_of(pid) is not None else -1
        if not self.watching:  # a player's pass, kept for a reload
            self.board.storage_value = json.dumps({"code": state.code, "pid": pid,
                                                   "token": token})
        self.form.layout.display = "none"
        self.playing.layout.display = None
        self.board.layout.display = None
        self.message.value = ""
        if self.feed is not None:
            self.feed.stop()
        self.feed = LiveFeed(self.room.store, state.code, state.seq, self._new_events,
                             on_gone=self._gone).start()
        self._lay_out(state)
        self._said_ply = state.ply  # a reload does not read the whole game out again
        self._said_mark = state.adapter.told_mark(state.game)
        self.redraw()

    def _lay_out(self, state: TableState) -> None:
        """What depends only on the table's game: the Triomino parts or the zoom buttons, the
        keys listed beside the board, and where the keyboard's frame starts."""
        adapter = state.adapter
        self.triomino_box.layout.display = (None if adapter.has_rack and not self.watching
                                            else "none")
        self.leave_button.description = (_("Stop watching") if self.watching
                                         else _("Leave the table"))
        self.zooms.layout.display = None if adapter.zooms else "none"
        for other in GAMES.values():  # this game's layout class only
            if other.css_class and other.css_class != adapter.css_class:
                self.remove_class(other.css_class)
        if adapter.css_class:
            self.add_class(adapter.css_class)
        self._take(adapter.start_pick(state.game))
        if self.watching:
            watching = _("You are watching this table: the moves appear as they are played.")
            self.help.value = f"<p>{esc(watching)}</p>"
        else:
            self.help.value = by_pointer(*adapter.help_texts())

    def _new_events(self, events: list[Event]) -> None:
        state = self.state
        if state is not None:
            before = state.ply
            state.fold(events)
            if state.ply != before:
                self.selected, self.tile = None, None
                if "mg-out-of-turn" in self.message.value:  # the turn has moved on
                    self.message.value = ""
            if state.next_table is not None and self.seat >= 0:  # the others play again
                return self._follow(lambda: self.room.follow(state, self.pid, self.token))
            if state.next_table is not None and self.watching:  # and are watched there
                self.watch(state.next_table)
                self._tell(_("A new game with the same players"), role=None)
                return None
            self.redraw()
        return None

    def ask_leave(self) -> None:
        """Leave at once before the game or after it; during it, ask first (a bot takes
        the seat)."""
        state = self.state
        if state is not None and state.started and not state.is_over and not self.watching:
            self.leave_confirm.ask()
        else:
            self.leave()

    def leave(self) -> None:
        """Give up the seat (see :meth:`Classroom.leave_table`), forget this browser's pass
        (a device shared by the class) and show the forms again, to join another table.
        A page that watches stops watching (the browser's pass, if any, stays)."""
        state = self.state
        if state is None:
            return
        if not self.watching:
            try:
                self.room.leave_table(state.code, self.pid, self.token, state=state)
            except UnknownSessionError:
                return self._gone()
            except MathgamesError as error:
                return self._fail(error)
        self._forget()
        self.message.value = ""
        return None

    def _forget(self) -> None:
        """No table on this page any more: no feed, no pass kept (a page that watched keeps
        the browser's own), the forms again."""
        if not self.watching:
            self.board.storage_value = ""  # the browser drops its kept pass
        if self.feed is not None:
            self.feed.stop()
        self.state, self.pid, self.token, self.feed, self.seat = None, "", "", None, -1
        self.selected, self.tile, self.cursor = None, None, None
        self.watching = False
        self.remove_class("mg-table-watching")
        self.leave_confirm.hide()
        self.playing.layout.display = "none"
        self.board.layout.display = "none"
        self.form.layout.display = None

    def _gone(self) -> None:
        """The table left the store (the teacher deleted its class): the pass is forgotten,
        the forms show again, and the page says why."""
        if self.state is None:
            return
        self._forget()
        self._tell(_("This table is no longer on the server: the teacher deleted its class."))
        return None

    def play_again(self) -> None:
        """After the game: another one with the same players, each in their seat (the
        others' pages follow by themselves), the bots in theirs."""
        state = self.state
        if state is None:
            return
        self._follow(lambda: self.room.play_again(state.code, self.pid, self.token,
                                                  state=state))

    def _follow(self, take_seat: Callable[[], tuple[str, str, str]]) -> None:
        """Sit down at the table of the next game (``take_seat`` gives its code, id and
        token), or say why not and stay."""
        try:
            code, pid, token = take_seat()
            state = self.room.load_table(code)
        except MathgamesError as error:
            self.redraw()
            return self._fail(error)
        self._enter(state, pid, token)
        self._tell(_("A new game with the same players"), role=None)
        return None

    def start(self) -> None:
        """Start the game; bots take the empty seats."""
        if self.state is None:
            return
        try:
            self.state = self.room.start_table(self.state.code, self.pid, self.token,
                                               state=self.state)
        except UnknownSessionError:
            return self._gone()
        except MathgamesError as error:
            self.state = self._catch_up(self.state)
            self._fail(error)
        self.redraw()

    def _catch_up(self, state: TableState) -> TableState:
        """The table as the store holds it after a refused action: ``state`` with the others'
        moves since, or ``state`` as it is while the store does not answer (the refused
        action changed nothing in it, so the page never shows a move that was not kept)."""
        try:
            return self.room.refresh(state)
        except StoreError:
            return state

    # -- moving --------------------------------------------------------------------------------
    def play_text(self, text: str) -> None:
        """Play a move given as text (a Halma path, or a Triomino action)."""
        state = self.state
        if state is None:
            return
        try:
            self.state = self.room.move(state.code, self.pid, self.token, text, state=state)
            self.message.value = ""
        except UnknownSessionError:
            return self._gone()
        except MathgamesError as error:
            self.state = self._catch_up(state)
            self._fail(error)
        self.selected, self.tile, self.rotation = None, None, 0
        self.redraw()

    def click(self, cell: str) -> None:
        """A click on the board: choose a piece, then where it goes (or where a tile goes)."""
        state = self.state
        if state is None or not state.started or state.is_over or self.watching:
            return
        if state.to_move != self.seat:  # a tap out of turn: say whose turn it is
            text = _("It is {name}'s turn: wait for your turn").format(
                name=state.player_name(state.to_move))
            self.message.value = message_html(text, role="status").replace(
                "<p ", '<p class="mg-out-of-turn" ', 1)
            self.board.say(text)
            return
        self._reply(state.adapter.click(state.game, self.seat, self._pick(), cell))
        return None

    def _pick(self) -> Pick:
        """What this page has chosen (for the game's adapter)."""
        return Pick(self.selected, self.tile, self.rotation, self.cursor)

    def _take(self, pick: Pick) -> None:
        """Keep the choices the game's adapter gives back."""
        self.selected, self.tile, self.rotation, self.cursor = (
            pick.selected, pick.tile, pick.rotation, pick.cursor)

    def _reply(self, reply: Reply) -> None:
        """Do what a click or a key came to (the adapter's :class:`Reply`): keep the new
        choices, then play the move, click the board, zoom or say why not."""
        self._take(reply.pick)
        if reply.move is not None:
            self.play_text(reply.move)
        elif reply.click is not None:
            self.click(reply.click)
        elif reply.error is not None:
            self._tell(reply.error)
        else:
            if reply.zoom:
                self.zooms.step(reply.zoom)
            self.redraw()
        if reply.said:
            self.board.say(reply.said)

    def pick_tile(self, cell: str) -> None:
        """Choose a tile of the rack (``t0-1-2``)."""
        state = self.state
        if state is None:
            return
        self._take(state.adapter.rack_click(self._pick(), cell))
        self.redraw()

    def turn(self) -> None:
        self.rotation = (self.rotation + 1) % 3
        self.redraw()

    # -- by keyboard ---------------------------------------------------------------------------
    def _key(self, key: str) -> None:
        """The game's keys (its adapter's ``key``: Halma's arrows, Enter, Escape, + and -;
        Triomino's 1-9, T, R, arrows, N, Enter, D and P)."""
        state = self.state
        if state is None or not state.started:
            return
        if self.watching and key not in LOOK_KEYS:
            return  # a page that watches looks around (Halma's frame, the zoom), no more
        self._reply(state.adapter.key(state.game, self.seat, self._pick(), key))

    # -- bots ----------------------------------------------------------------------------------
    def _schedule_bot(self) -> None:
        state = self.state
        if state is None or self._bot_pending or not state.bot_to_move:
            return
        self._bot_pending = True
        asyncio.get_event_loop().call_later(BOT_DELAY, self._bot_turn)

    def _bot_turn(self) -> None:
        self._bot_pending = False
        if self.state is None:
            return
        try:
            self.state = self.room.bot_step(self.state)
        except UnknownSessionError:
            return self._gone()
        except MathgamesError as error:  # should not happen: the bot plays legal moves
            self._fail(error)
        self.redraw()

    # -- drawing -------------------------------------------------------------------------------
    def redraw(self) -> None:
        state = self.state
        if state is None:
            return
        bots = ""  # the bots' level, while bots may still come or when they play
        if not state.started or any(map(state.is_bot, range(len(state.seats)))):
            bots = (f'<p class="mg-table-bots">{esc(_("Bots"))}: '
                    f"{esc(level_title(state.bot_level))}</p>")
        self.info.value = (
            f'<p style="font-size:20px">{esc(game_title(state.game_name))} · '
            f'{esc(_("Table code"))} <b class="mg-table-code" style="font-size:32px;'
            f'letter-spacing:4px">{esc(state.code)}</b></p>{self._seats_html(state)}' + bots)
        self.start_button.layout.display = "none" if state.started or self.watching else None
        self.again_button.layout.display = None if state.is_over and self.seat >= 0 else "none"
        if not state.started and self.watching:
            text = _("Waiting for the players to start")
        elif not state.started:
            text = _("Waiting for players: start when everyone is here")
        elif state.is_over:
            text = _("Game over: {result}").format(result=state.result())
        elif state.round_over:
            # how the round ended stays on screen until a player deals the next one
            text = " ".join(state.adapter.round_told(state.game, self._name))
            if self.seat >= 0:
                text += " " + _t("Press Next round to deal again.")
        elif state.to_move == self.seat:
            text = state.adapter.your_turn(state.game, self.seat, self._pick())
        elif self.watching:
            text = _("Turn: {name}").format(name=self._name(state.to_move))
        else:
            text = _("Waiting for the others")
        last = ""  # a turn told (Triomino's: what was drawn, placed or passed, its points)
        told = state.adapter.last_told(state.game, self._name) if state.started else ""
        if told:
            last = f'<p class="mg-table-last">{esc(told)}</p>'
        self.status.value = (f'<p class="mg-table-line" data-ply="{state.ply}" '
                             f'data-over="{int(state.is_over)}" data-turn="{state.to_move}" '
                             f'style="font-size:22px">{esc(text)}</p>{last}')
        if state.ply > self._said_ply:
            self._announce(state, text)
        self._said_ply = state.ply
        self._draw(state)
        self._schedule_bot()

    def _announce(self, state: TableState, status: str) -> None:
        """Tell a screen reader the others' moves since the last told (a Triomino turn in
        words, with its points), then the status line ("Your turn"); the status alone when
        the move that ended a round or the game was this player's own."""
        said = state.adapter.told_since(state.game, self._said_mark, self.seat, self._name)
        self._said_mark = state.adapter.told_mark(state.game)
        if said or state.is_over or state.round_over:
            self.board.say(". ".join([*said, status]))

    def _name(self, seat: int) -> str:
        """Who sits at ``seat`` in the words of a told move: the seat's number is added
        where two share a name (two bots)."""
        state = self.state
        assert state is not None
        name = state.player_name(seat)
        names = [state.player_name(i) for i in range(len(state.seats))]
        return f"{name} ({seat + 1})" if names.count(name) > 1 else name

    def _seats_html(self, state: TableState) -> str:
        """Who sits where, whose turn it is, how many of a Halma player's pieces are home,
        and at a Triomino table each player's points and tiles in hand (the number only),
        the round and the tiles left in the pool."""
        labels = []
        for i in range(len(state.seats)):
            name = state.player_name(i) or _("empty seat")
            you = f" ({_('you')})" if i == self.seat else ""
            turn = "\u00a0◀" if state.started and not state.is_over and state.to_move == i else ""
            labels.append(name + you + turn)
        return state.adapter.seats_html(state.game, state.started, labels)

    def _draw(self, state: TableState) -> None:
        """The board (and a rack: this player's own tiles only) as this seat sees it, and
        the buttons of a game with a rack."""
        adapter, game, pick = state.adapter, state.game, self._pick()
        self.board.svg = adapter.board_svg(game, self.seat, pick, state.started)
        if not adapter.has_rack:
            return
        self.rack.svg = adapter.rack_svg(game, self.seat, pick, state.started)
        mine = state.started and not state.is_over
        self.draw_button.disabled = not (mine and adapter.can(game, self.seat, "draw"))
        self.pass_button.disabled = not (mine and adapter.can(game, self.seat, "pass"))
        self.next_button.layout.display = (  # any player at the table may deal it
            None if state.round_over and self.seat >= 0 else "none")

    def close(self) -> None:
        if self.feed is not None:
            self.feed.stop()
        super().close()
