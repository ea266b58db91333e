"""A table for Halma, Chinese checkers or Triomino, played from each player's own device.

A student opens a table (it gets its own code) or joins one by its code; 2-6
seats are taken by students, and a bot takes each seat left empty when the game
starts. Every move is checked by the game's rules core and appended to the
table's log in the shared store; every page at the table follows the log live.
The page composes the shared board widget with the games' pure views
(:func:`mathgames.halma.view.render`, :func:`mathgames.triomino.view.table_svg`
and ``rack_svg``) and never sends a player another player's Triomino tiles: the
hands exist only in the kernels, rebuilt from the table's seed and moves.
``tests/classroom/test_classroom_pages.py`` drives it from Python.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import ipywidgets as w

from mathgames.classroom.session import (
    TABLE_BOT_LEVELS,
    TABLE_GAMES,
    TableState,
    game_title,
    level_title,
    triomino_text,
)
from mathgames.classroom.store import Event, StoreError, UnknownSessionError, normalize_code
from mathgames.core.board_widget import BoardWidget
from mathgames.core.errors import MathgamesError
from mathgames.core.i18n import format_number, translator
from mathgames.core.levels import DEFAULT_LEVEL
from mathgames.core.svg import TEXT_PALETTE, esc
from mathgames.core.ui_widget import Confirm, EnterSubmits, ZoomButtons, by_pointer
from mathgames.halma.view import ARROWS, arrow_step, cell_said, render
from mathgames.pages.live import (
    LiveFeed,
    classroom,
    message_html,
    query_value,
    read_pass,
)
from mathgames.triomino.narrate import describe_start, describe_turn, round_summary

__all__ = ["STORAGE_KEY", "TablePage"]

_ = translator("classroom")
_t = translator("triomino")  # the Triomino game's own words: its rounds and pool

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
        self._said_log = 0  # and a Triomino game's log up to there
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
        self._said_log = len(state.game.log) if state.is_triomino else 0
        self.redraw()

    def _lay_out(self, state: TableState) -> None:
        """What depends only on the table's game: the Triomino parts or the zoom buttons, the
        keys listed beside the board, and where the keyboard's frame starts."""
        self.triomino_box.layout.display = (None if state.is_triomino and not self.watching
                                            else "none")
        self.leave_button.description = (_("Stop watching") if self.watching
                                         else _("Leave the table"))
        self.zooms.layout.display = "none" if state.is_triomino else None
        if state.is_triomino:
            self.add_class("mg-table-triomino")
            self.cursor = None
        else:
            self.remove_class("mg-table-triomino")
            topology = state.game.topology
            self.cursor = topology.names[topology.center]  # the middle of the board
        if self.watching:
            watching = _("You are watching this table: the moves appear as they are played.")
            self.help.value = f"<p>{esc(watching)}</p>"
        elif state.is_triomino:
            self.help.value = by_pointer(
                _("Click one of your tiles, then its place. Keys: 1 to 9 or T choose a tile, "
                  "R turns it, the arrows or N go from place to place, Enter puts it there, D "
                  "draws, P passes."),
                _("Tap one of your tiles, then its place; slide your tiles sideways to see "
                  "them all."))
        else:
            self.help.value = by_pointer(
                _("Click a piece, then where it goes. Keys: the arrows move the frame, Enter "
                  "or space clicks, Escape lets go, + and - zoom."),
                _("Tap a piece, then where it goes; the magnifier buttons make the squares "
                  "bigger."))

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
        if state.is_triomino:
            return self._place_tile(cell)
        game = state.game
        if self.selected is not None:
            moves = game.moves_from(self.selected)
            if cell in moves:
                return self.play_text(str(moves[cell]))
        self.selected = cell if game.owner(cell) == self.seat else None
        self.redraw()
        return None

    def pick_tile(self, cell: str) -> None:
        """Choose a tile of the rack (``t0-1-2``)."""
        from mathgames.triomino.tiles import Tile

        self.tile = Tile.parse(cell[1:])
        self.rotation = 0
        self.redraw()

    def turn(self) -> None:
        self.rotation = (self.rotation + 1) % 3
        self.redraw()

    # -- by keyboard ---------------------------------------------------------------------------
    def _key(self, key: str) -> None:
        """Halma: arrows move the frame, Enter or space clicks there, Escape lets go.
        Triomino: 1-9 choose a tile (T: the next tile that may go now), R turns it, arrows
        or N go from free place to free place, Enter or space puts the tile there, D draws,
        P passes. + and - zoom."""
        state = self.state
        if state is None or not state.started:
            return
        if self.watching and key not in ("+", "-", *ARROWS):
            return  # a page that watches looks around (Halma's frame, the zoom), no more
        if key in ("+", "-") and not state.is_triomino:
            self.zooms.step(+1 if key == "+" else -1)
        elif state.is_triomino:
            self._triomino_key(state, key)
        elif key in ARROWS:
            self.cursor = arrow_step(state.game.topology, self.cursor, key)
            self.redraw()
            self.board.say(cell_said(state.game, self.cursor))
        elif key in ("Enter", " "):
            self.click(self.cursor)
        elif key == "Escape":
            self.selected = None
            self.redraw()

    def _triomino_key(self, state: TableState, key: str) -> None:
        from mathgames.triomino.geometry import cell_id
        from mathgames.triomino.view import rack_id

        game = state.game
        if key.isdigit() and key != "0" and self.seat >= 0:
            hand = game.hand(self.seat)
            if int(key) <= len(hand):
                self.pick_tile(rack_id(hand[int(key) - 1]))
                self.board.say(_("Tile {tile}").format(tile=self.tile))
        elif key in ("t", "T") and game.placeable_tiles():  # the next tile that may go now
            tiles = game.placeable_tiles()
            at = tiles.index(self.tile) + 1 if self.tile in tiles else 0
            self.pick_tile(rack_id(tiles[at % len(tiles)]))
            self.board.say(_("Tile {tile}").format(tile=self.tile))
        elif key in ("r", "R") and self.tile is not None:
            self.turn()
        elif key in ("d", "D"):
            self.play_text("draw")
        elif key in ("p", "P"):
            self.play_text("pass")
        elif key in (*ARROWS, "n", "N"):
            places = self._places()
            if places:
                step = -1 if key in ("ArrowLeft", "ArrowUp") else 1
                at = places.index(self.cursor) + step if self.cursor in places else 0
                self.cursor = places[at % len(places)]
                self.redraw()
                self.board.say(_("Free place {n} of {total}").format(
                    n=places.index(self.cursor) + 1, total=len(places)))
        elif key in ("Enter", " ") and self.cursor in self._places():
            self._place_tile(cell_id(self.cursor))

    def _places(self) -> list[Any]:
        """The free places of the Triomino table, in order (the first tile: the middle)."""
        state = self.state
        if state is None or not state.is_triomino or state.to_move != self.seat:
            return []
        return sorted(state.game.table.frontier())

    def _place_tile(self, cell_text: str) -> None:
        from mathgames.triomino.geometry import parse_cell

        state = self.state
        if state is None or self.tile is None:
            self._tell(_("Choose a tile first"))
            return
        cell = parse_cell(cell_text)
        fitting = [p for p in state.game.legal_placements(self.tile) if p.cell == cell]
        chosen = next((p for p in fitting if p.rotation == self.rotation), None)
        if chosen is None and fitting:
            chosen = fitting[0]
        if chosen is None:
            self._tell(_("That tile does not fit there"))
            return
        self.play_text(triomino_text(("place", chosen)))

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
            text = " ".join(round_summary(state.game, self._name))
            if self.seat >= 0:
                text += " " + _t("Press Next round to deal again.")
        elif state.to_move == self.seat:
            text = _("Your turn")
            if state.is_triomino and state.game.phase == "play":
                if not state.game.legal_placements():
                    text = _("Your turn: none of your tiles fits: draw, or pass")
                elif self.tile is None and set(state.game.placeable_tiles()) != set(
                        state.game.hand(self.seat)):  # some tiles are dimmed (not allowed now)
                    text = _("Your turn: choose one of your bright tiles, then its place on "
                             "the table")
                elif self.tile is None:
                    text = _("Your turn: choose one of your tiles, then its place on the table")
                else:
                    text = _("Your turn: choose the tile's place on the table, or turn the tile")
        elif self.watching:
            text = _("Turn: {name}").format(name=self._name(state.to_move))
        else:
            text = _("Waiting for the others")
        last = ""  # a Triomino turn told: what was drawn, placed or passed, and its points
        if state.is_triomino and state.started and state.game.phase == "play":
            # who starts the round and why, then each turn
            told = (describe_start(state.game, self._name) if state.game.is_start_move
                    else describe_turn(state.game, self._name))
            if told:
                last = f'<p class="mg-table-last">{esc(told)}</p>'
        self.status.value = (f'<p class="mg-table-line" data-ply="{state.ply}" '
                             f'data-over="{int(state.is_over)}" data-turn="{state.to_move}" '
                             f'style="font-size:22px">{esc(text)}</p>{last}')
        if state.ply > self._said_ply:
            self._announce(state, text)
        self._said_ply = state.ply
        if state.is_triomino:
            self._draw_triomino(state)
        else:
            self.board.svg = render(state.game, selected=self.selected, cursor=self.cursor,
                                    show_target=state.started)
        self._schedule_bot()

    def _announce(self, state: TableState, status: str) -> None:
        """Tell a screen reader the others' moves since the last told (a Triomino turn in
        words, with its points), then the status line ("Your turn"); the status alone when
        the move that ended a round or the game was this player's own."""
        said = []
        game = state.game
        if state.is_triomino:
            log = game.log
            for i in range(self._said_log, len(log)):  # each turn's last action so far
                item, after = log[i], log[i + 1] if i + 1 < len(log) else None
                if item[1] < 0 or (after is not None and after[:2] == item[:2]):
                    continue
                if item[1] != self.seat:  # (only what was not told yet: a draw once)
                    said.append(describe_turn(game, self._name, item[0], end=i + 1,
                                              start=self._said_log))
            self._said_log = len(log)
        else:
            for (mover, _path, _done), move in list(zip(game.history, game.moves,
                                                        strict=True))[self._said_ply:]:
                if mover != self.seat:
                    said.append(f"{self._name(mover)}: {move}")
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
        rows, scores = [], state.is_triomino and state.started
        game = state.game
        for i in range(len(state.seats)):
            name = state.player_name(i) or _("empty seat")
            you = f" ({_('you')})" if i == self.seat else ""
            turn = "\u00a0◀" if state.started and not state.is_over and state.to_move == i else ""
            colour = TEXT_PALETTE[i % len(TEXT_PALETTE)]
            if not scores:
                home = ""  # a race's progress: the pieces already in the target camp
                if state.started and not state.is_triomino:
                    home = " · " + _("{n} of {total} home").format(
                        n=game.pieces_home(i), total=len(game.pieces_of(i)))
                rows.append(f'<li data-seat="{i}" style="color:{colour}">'
                            f"{esc(name + you + turn + home)}</li>")
                continue
            points = (f'<td class="mg-points">{format_number(game.scores[i])}</td>'
                      if game.rules.keep_score else "")
            rows.append(f'<tr data-seat="{i}" style="color:{colour}"><th scope="row">'
                        f"{i + 1}.\u00a0{esc(name + you + turn)}</th>{points}"
                        f'<td class="mg-tiles">{format_number(len(game.hand(i)))}</td></tr>')
        if not scores:
            return f'<ol start="1">{"".join(rows)}</ol>'
        head = f'<th scope="col">{esc(_("Points"))}</th>' if game.rules.keep_score else ""
        pool = _t.ngettext("{n} tile in the pool", "{n} tiles in the pool", len(game.pool))
        return (f'<table class="mg-table-scores"><tr><td></td>{head}'
                f'<th scope="col">{esc(_("Tiles"))}</th></tr>{"".join(rows)}</table>'
                f'<p class="mg-table-round">{esc(_t("Round {n}").format(n=game.round))} · '
                f'{esc(pool.format(n=len(game.pool)))}</p>')

    def _draw_triomino(self, state: TableState) -> None:
        from mathgames.triomino.view import rack_svg, table_svg

        game = state.game
        mine = (state.started and not state.is_over and state.to_move == self.seat
                and game.phase == "play")
        # the free places show on the player's turn, a tile chosen or not; while the table
        # is empty, the middle on every page (a blank table would not say where tiles go)
        empty = state.started and not game.table.order
        clickable: set[Any] = game.table.frontier() if mine or empty else set()
        last = game.table.order[-1].cell if game.table.order else None
        self.board.svg = table_svg(game.table, clickable=clickable, last=last,
                                   title=_("Triomino table"),
                                   cursor=self.cursor if self.cursor in clickable else None)
        hand = game.hand(self.seat) if self.seat >= 0 else []  # this player's tiles only
        self.rack.svg = rack_svg(hand, selected=self.tile if mine else None,
                                 rotation=self.rotation, title=_("Your tiles"),
                                 playable=set(game.placeable_tiles()) if mine else None)
        self.draw_button.disabled = not (mine and game.can_draw())
        self.pass_button.disabled = not (mine and game.can_pass())
        self.next_button.layout.display = (  # any player at the table may deal it
            None if state.round_over and self.seat >= 0 else "none")

    def close(self) -> None:
        if self.feed is not None:
            self.feed.stop()
        super().close()
