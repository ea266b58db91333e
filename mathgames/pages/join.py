"""The student's page of a class: type the code and a first name, then place the teacher's numbers.

The page composes the shared board widget with Matematiko's pure view
(:func:`mathgames.matematiko.view.render_grid`); the rules live in
:mod:`mathgames.classroom.class_state`. The student's secret token is kept in the
browser's local storage through the board widget's storage mechanism, so a
reload (or a lost connection) rejoins the class with the grid as it was.
``tests/classroom/test_classroom_pages.py`` drives it from Python.
"""

from __future__ import annotations

import json
from typing import Any

import ipywidgets as w

from mathgames.classroom.class_state import ClassState
from mathgames.classroom.store import Event, UnknownSessionError, normalize_code
from mathgames.core.board_widget import BoardWidget
from mathgames.core.errors import MathgamesError
from mathgames.core.i18n import translator
from mathgames.core.svg import esc
from mathgames.core.ui_widget import Confirm, EnterSubmits
from mathgames.core.widget_looks import BuiltTogether
from mathgames.matematiko.match import cell_index, cell_name
from mathgames.matematiko.view import GRID_ARROWS, cell_title, render_grid, step_cell
from mathgames.pages.live import (
    LiveFeed,
    classroom,
    message_html,
    query_value,
    read_pass,
)

__all__ = ["STORAGE_KEY", "JoinPage"]

_ = translator("classroom")

#: Where the browser keeps the student's pass for the class (local storage).
STORAGE_KEY = "classroom-class"
#: What a student's page wakes for while the numbers are called: the teacher's events (its
#: own placements it makes). Another student's placement changes nothing on this page until
#: the 25th number; from then on it may change this student's place and the totals, so the
#: page also wakes for placements (:data:`FINAL_KINDS`): N pages wake for each of N last
#: placements once a game, not for the 25 x N placements of the whole game.
CALLING_KINDS = frozenset({"call", "uncall", "again", "remove"})
FINAL_KINDS = CALLING_KINDS | {"place"}


class JoinPage(w.VBox, metaclass=BuiltTogether):
    """Join a class by its code and play the teacher's Matematiko game on this device.

    Built together (:func:`~mathgames.core.widget_looks.built_together`): the page opens
    its widgets once they are made, and those that never change their look share one."""

    def __init__(self, code: str | None = None) -> None:
        self.room = classroom()
        self.state: ClassState | None = None
        self.pid = ""
        self.token = ""
        self.feed: LiveFeed | None = None
        self.code_input = w.Text(value=code if code is not None else query_value("code"),
                                 description=_("Class code"), placeholder="K3M9T")
        self.name_input = w.Text(description=_("First name"), placeholder=_("your first name"))
        self.join_button = w.Button(description=_("Join the class"), button_style="primary",
                                     layout=w.Layout(width="auto"))
        self.join_button.add_class("mg-join-button")
        self.join_button.on_click(lambda _b: self.join_now(self.code_input.value,
                                                           self.name_input.value))
        # Enter in either box joins, as the button does
        self.enter = EnterSubmits(self.join_button, self.code_input, self.name_input)
        self.form = w.VBox([w.HTML(f"<h2>{esc(_('Join a class'))}</h2>"), self.code_input,
                            self.name_input, self.join_button, self.enter],
                           layout=w.Layout())
        self.form.add_class("mg-join-form")
        self.message = w.HTML("")
        self.message.add_class("mg-join-message")
        self.status = w.HTML("")
        self.status.add_class("mg-join-status")
        self.board = BoardWidget(label=_("Your Matematiko grid"), storage_key=STORAGE_KEY,
                                 layout=w.Layout(display="none"))
        self.board.on_cell_click(self.click)
        self.board.on_key(self._key)
        self.cursor = 12  # the keyboard's cell (the middle), framed on the grid
        self.board.on_stored(self.rejoin)
        self.undo_button = w.Button(description=_("Undo"), icon="undo", disabled=True,
                                    tooltip=_("Take back the last number you placed, "
                                              "until the next one is called (U)"),
                                    layout=w.Layout(width="auto", display="none",
                                                    align_self="flex-start"))
        self.undo_button.add_class("mg-undo")
        self.undo_button.on_click(lambda _b: self.undo())
        self.leave_button = w.Button(description=_("Leave: join another class"),
                                     layout=w.Layout(width="auto", display="none",
                                                     align_self="flex-start",
                                                     margin="24px 0 0 0"))
        self.leave_button.add_class("mg-leave-class")
        self.leave_button.on_click(lambda _b: self.ask_leave())
        # far from Undo, and asked first: this device would forget the pass, and the
        # name stays taken by the grid it leaves behind
        self.leave_confirm = Confirm(self._leave_question, self.leave,
                                     lambda: (_("Yes, leave"), _("No")))
        self.leave_confirm.add_class("mg-leave-confirm")
        super().__init__([self.form, self.message, self.status, self.board, self.undo_button,
                          self.leave_button, self.leave_confirm])
        self.add_class("mg-join-page")
        self.add_class("mg-app")  # the game pages' sizes for a projector and a phone

    def __repr__(self) -> str:
        return "JoinPage()"  # not every widget's state (a notebook shows 110 characters)

    # -- joining -------------------------------------------------------------------------------
    def join_now(self, code: str, name: str) -> None:
        """Join the class ``code`` as ``name`` (what the Join button does)."""
        try:
            clean = normalize_code(code)
            pid, token = self.room.join_class(clean, name)
            state = self.room.load_class(clean)
        except MathgamesError as error:
            self.message.value = message_html(str(error))
            return
        self._enter(state, pid, token)

    def rejoin(self, kept: str) -> None:
        """Take back the seat this browser kept (on reload); refuse a pass that is not valid."""
        try:
            data = read_pass(kept, _("This device's pass for the class is damaged: join "
                                     "again with the class code and your first name"))
            state = self.room.load_class(data["code"])
            self.room.check_student(state, data.get("pid"), data.get("token"))
        except UnknownSessionError:  # the teacher deleted the class: forget the pass
            self.board.storage_value = ""
            self._say_gone()
            return
        except MathgamesError as error:
            self.message.value = message_html(str(error))
            return
        self._enter(state, data["pid"], data["token"])

    def _enter(self, state: ClassState, pid: str, token: str) -> None:
        self.state, self.pid, self.token = state, pid, token
        self.board.storage_value = json.dumps({"code": state.code, "pid": pid, "token": token})
        self.form.layout.display = "none"
        self.board.layout.display = None
        self.leave_button.layout.display = None
        self.undo_button.layout.display = None
        self.message.value = ""
        if self.feed is not None:
            self.feed.stop()
        self.feed = LiveFeed(self.room.store, state.code, state.seq, self._new_events,
                             kinds=self._kinds(), on_gone=self._gone).start()
        self.redraw()

    def _kinds(self) -> frozenset[str]:
        """The events this page wakes for now (:data:`CALLING_KINDS`, :data:`FINAL_KINDS`)."""
        return FINAL_KINDS if self.state is not None and self.state.is_over else CALLING_KINDS

    def ask_leave(self) -> None:
        """The Leave button: asked first while the game is under way; at once when it is
        over (nothing is lost then) or before this student has placed anything."""
        state = self.state
        student = None if state is None else state.students.get(self.pid)
        if state is None or student is None or state.is_over or not student.cells:
            self.leave()
        else:
            self.leave_confirm.ask()

    def _leave_question(self) -> str:
        student = self.state.students.get(self.pid) if self.state is not None else None
        return _("Leave the class? This device forgets your pass: your grid stays with the "
                 "teacher, but you cannot come back to it as {name}.").format(
                     name=student.name if student is not None else "")

    def leave(self) -> None:
        """Forget this browser's pass (a shared device): show the form again."""
        self.leave_confirm.hide()
        if self.feed is not None:
            self.feed.stop()
        self.state, self.pid, self.token, self.feed = None, "", "", None
        self.board.storage_value = ""  # the browser drops its kept copy
        self.board.layout.display = "none"
        self.leave_button.layout.display = "none"
        self.undo_button.layout.display = "none"
        self.status.value = ""
        self.form.layout.display = None

    def _new_events(self, events: list[Event]) -> None:
        if self.state is None:
            return
        taken, seen = [], (self.state.game, list(self.state.calls))
        for event in events:
            before, game = list(self.state.calls), self.state.game
            self.state.fold([event])
            if self.state.game > game:
                taken = []
                self._say_new_game()
            elif len(self.state.calls) < len(before):
                taken.append(before[-1])
            elif len(self.state.calls) > len(before):
                self.message.value = ""  # a new number: the last one's message is old news
        if taken:
            self._say_taken_back(taken)
        if self.state.students.get(self.pid) is None:
            self._removed()
            return
        if self.feed is not None:
            self.feed.kinds = self._kinds()  # the others' last placements, after the 25th
        self.redraw()
        if (self.state.game, self.state.calls) != seen:
            self.board.say(self._status_text())  # a screen reader hears the new number

    def _removed(self) -> None:
        """The teacher took this student off the class: the form again, and why."""
        self.leave()
        text = _("The teacher removed you from the class: join again with your first name")
        self.message.value = message_html(text)

    def _gone(self) -> None:
        """The teacher deleted the class: the pass is forgotten and the form shows again;
        the grid stays on the screen as it ended."""
        if self.state is None:
            return
        self.leave()
        self.board.layout.display = None  # as it ended
        self.code_input.value = ""
        self._say_gone()

    def _say_gone(self) -> None:
        text = _("The teacher has deleted the class: your grid is no longer on the server. "
                 "To play again, join a class with its code.")
        self.message.value = message_html(text)
        self.board.say(text)

    def _say_new_game(self) -> None:
        assert self.state is not None
        text = _("Game {n}: wait for the teacher's first number").format(n=self.state.game)
        self.message.value = message_html(text, role="status")

    def _say_taken_back(self, cards: list[int]) -> None:
        """Say which numbers the teacher took back (a card typed wrong): they left the grid."""
        text = _("The teacher took back the {card}").format(
            card=", ".join(str(card) for card in cards))
        self.message.value = message_html(text, role="status")

    # -- playing -------------------------------------------------------------------------------
    def _key(self, key: str) -> None:
        """Arrows move the frame over the grid, Enter or space places the number there."""
        state = self.state
        if state is None or self.pid not in state.students:
            return
        if key in GRID_ARROWS:
            self.cursor = step_cell(self.cursor, key)
            self.redraw()
            grid = state.students[self.pid].grid
            self.board.say(cell_title(cell_name(self.cursor), grid[self.cursor]))
        elif key in ("Enter", " "):
            self.click(cell_name(self.cursor))
        elif key in ("Backspace", "Delete") or key.lower() == "u":
            self.undo()

    def undo(self) -> None:
        """Take back the placement of the last number called (a tap on the wrong cell),
        until the next number is called: the cell is free and the number to place again."""
        state = self.state
        if state is None or self.pid not in state.students:
            return
        cells = state.students[self.pid].cells
        cell = cells[-1] if cells else self.cursor
        try:
            self.state = self.room.unplace(state.code, self.pid, self.token, len(cells) - 1,
                                           state=state)
        except UnknownSessionError:
            return self._gone()
        except MathgamesError as error:  # nothing to take back, or the next number came
            # first: the attempt has brought ``state`` (this page's) up to date
            if self.pid not in state.students:
                self._removed()
                return
            self.message.value = message_html(str(error))
            self.redraw()
            self.board.say(str(error))
            return
        self.cursor = cell
        self.message.value = ""
        self.redraw()
        self.board.say(_("{cell} is free again: {status}").format(
            cell=cell_name(cell), status=self._status_text()))

    def click(self, cell: str) -> None:
        """Place the next called number in ``cell`` ("a1".."e5")."""
        state = self.state
        if state is None or self.pid not in state.students:
            return
        index = len(state.students[self.pid].cells)
        if index >= len(state.calls) or state.students[self.pid].next_game:
            self.board.say(self._status_text())  # nothing to place: wait for the next number
            return
        card, game = state.calls[index], state.game
        try:
            self.state = self.room.place(state.code, self.pid, self.token, index,
                                         cell_index(cell), state=state)
            self.message.value = ""
            self.cursor = cell_index(cell)
            self.redraw()
            self.board.say(f"{cell}: {card}. {self._status_text()}")
            return
        except UnknownSessionError:
            return self._gone()
        except MathgamesError as error:
            # refused: the attempt has brought ``state`` (this page's) up to date
            self.state = state
            if self.pid not in self.state.students:
                self._removed()  # as this number was placed
                return
            if self.state.game > game:
                self._say_new_game()  # the teacher started the next game as it was placed
            elif index >= len(self.state.calls):
                self._say_taken_back([card])  # the teacher took it back as it was placed
            else:
                self.message.value = message_html(str(error))
        self.redraw()

    def redraw(self) -> None:
        state = self.state
        student = None if state is None else state.students.get(self.pid)
        if state is None or student is None:
            return
        placed, called = len(student.cells), len(state.calls)
        current = state.calls[placed] if placed < called else None
        if student.next_game:
            current = None
        self.board.svg = render_grid(student.grid, current=current, code=state.code,
                                     code_label=_("Class code"),
                                     player=student.name, placing=current is not None,
                                     calls=placed + 1 if current is not None else called,
                                     cursor=self.cursor)
        self.undo_button.disabled = not state.can_unplace(self.pid)
        text = self._status_text()
        standing = next((s for s in state.standings() if s.pid == self.pid), None)
        final = (f' data-rank="{standing.rank}"'
                 if standing is not None and state.is_finished else "")
        self.status.value = (f'<p class="mg-join-line" data-placed="{placed}" '
                             f'data-called="{called}"{final} style="font-size:22px">'
                             f"{esc(text)}</p>")

    def _status_text(self) -> str:
        """What the student has to do now (the line above the grid)."""
        state = self.state
        assert state is not None
        student = state.students[self.pid]
        placed, called = len(student.cells), len(state.calls)
        current = state.calls[placed] if placed < called else None
        if student.next_game:
            return _("You joined after this game's last number: you play from the next "
                     "game. Wait for the teacher to start it.")
        if current is not None and called - placed > 1:
            text = _("Place the {card}: {n} called numbers to place").format(
                card=current, n=called - placed)
        elif current is not None:
            text = _("Place the {card}").format(card=current)
        elif state.is_over:
            standing = next(s for s in state.standings() if s.pid == self.pid)
            text = _("Game over: {points} points, place {rank} of {n}").format(
                points=standing.points, rank=standing.rank, n=len(state.players()))
            if still := len(state.waiting()):  # the place may change as they place
                text += " · " + _.ngettext(
                    "{n} student is still placing the last number",
                    "{n} students are still placing the last number", still).format(n=still)
            if state.past:  # and over all the class's games so far
                total = next(s for s in state.totals() if s.pid == self.pid)
                text += " · " + _("all {games} games: {points} points, place {rank}").format(
                    games=state.game, points=total.points, rank=total.rank)
        else:
            text = _("Wait for the teacher's next number")
        return text

    def close(self) -> None:
        if self.feed is not None:
            self.feed.stop()
        super().close()


def join_page(**options: Any) -> JoinPage:
    """The join page's widget (what ``notebooks/join.ipynb`` shows)."""
    return JoinPage(**options)
