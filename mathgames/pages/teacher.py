"""The teacher's page: open a class, show the code for the projector, call the numbers, see results.

The class is a log in the shared store (:mod:`mathgames.classroom`); this page
appends the teacher's calls (checked against the teacher's token, which the
browser keeps in local storage so that a reload resumes the class) and redraws
when students join and place (:class:`~mathgames.pages.live.LiveFeed`).
After the 25th number it shows the ranking (shared ranks for ties), each grid,
a chart of the class's scores beside a random player and the bots on the same
numbers, and a CSV export. ``tests/classroom/test_classroom_pages.py`` drives it.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

import bqplot as bq
import ipywidgets as w

from mathgames.classroom.class_state import ClassState, Standing, bot_scores
from mathgames.classroom.store import Event, UnknownSessionError, normalize_code
from mathgames.classroom.table_state import TableState, game_title
from mathgames.core.board_widget import BoardWidget
from mathgames.core.errors import MathgamesError, shorten
from mathgames.core.i18n import format_number, get_language, in_quotes, translator
from mathgames.core.svg import esc
from mathgames.core.ui_widget import Confirm, EnterSubmits
from mathgames.matematiko.deck import DEAL_LENGTH
from mathgames.matematiko.match import full_lines
from mathgames.matematiko.odds import expected_random_score
from mathgames.matematiko.view import render_grid
from mathgames.pages.live import (
    LiveFeed,
    address_breaks,
    classroom,
    join_address,
    message_html,
    qr_svg,
    read_pass,
)

__all__ = ["STORAGE_KEY", "TeacherPage", "random_scores"]

_ = translator("classroom")

#: Where the teacher's browser keeps the class code and the teacher's token.
STORAGE_KEY = "classroom-teacher"
#: Seconds after a call by the button in which another click on it calls nothing.
DOUBLE_CLICK = 1.0
#: The projector view: what the back row reads at 28 px or more (8 m from a 2 m wide screen
#: of 1280x720), and each stage of a class on one screen below the teacher's controls.
STYLE = """<style>
.mg-class-top-widget .widget-html-content, .mg-students .widget-html-content,
.mg-call-progress .widget-html-content, .mg-ranking .widget-html-content,
.mg-totals .widget-html-content { line-height: 1.3;
  white-space: normal; }
.mg-teacher-controls { flex-wrap: wrap; align-items: center; gap: 0 6px; }
.mg-teacher-controls .widget-button { padding: 4px 10px; }
.mg-teacher-controls .widget-inline-hbox { width: auto; }
.mg-teacher-controls .mg-seconds input { width: 3.4em; flex: 0 0 3.4em; }
.mg-teacher-controls .mg-typed-card input { width: 4.2em; flex: 0 0 4.2em; }
.mg-app .mg-stage { align-items: flex-start; gap: 8px 32px; flex-wrap: nowrap; }
.mg-stage > .mg-call-progress, .mg-stage > .mg-ranking-box { flex: 1 1 0; min-width: 0; }
@media (max-width: 700px) { .mg-app .mg-stage { flex-wrap: wrap; } }
.mg-class-label { font-size: 28px; }
.mg-class-code { font-size: 104px; line-height: 1.05; font-weight: bold; letter-spacing: 10px;
  font-family: "DejaVu Sans Mono", monospace; margin: 0 0 6px; }
.mg-class-top { display: flex; flex-wrap: wrap; gap: 8px 32px; align-items: center; }
.mg-class-top svg.mg-qr { width: 240px; height: 240px; }
.mg-address { font-size: 28px; overflow-wrap: normal; word-break: keep-all; max-width: 880px; }
.mg-calling .mg-class-top { display: block; width: 300px; }
.mg-calling .mg-class-code { font-size: 56px; letter-spacing: 6px; margin: 0; }
.mg-calling svg.mg-qr { width: 150px; height: 150px; }
.mg-calling .mg-address { font-size: 16px; }
.mg-students h3, .mg-ranking h3, .mg-totals h3 { font-size: 28px; margin: 4px 0; }
.mg-students ul { columns: 4 250px; font-size: 28px; list-style: none; padding: 0;
  margin: 0; }
.mg-students li { margin: 0; padding: 2px 0; break-inside: avoid; }  /* a margin would be
  cut at the top of every column but the first, which then sits lower */
.mg-students small { font-size: 28px; color: #444; }
.mg-students li[data-state="next"] { color: #555; }
.mg-ranking-box { gap: 8px 40px; flex-wrap: wrap; }
.mg-ranking table, .mg-totals table { border-collapse: collapse; font-size: 28px; }
.mg-ranking :is(td, th), .mg-totals :is(td, th) { border: 1px solid #c8ced6;
  padding: 2px 14px; }
.mg-grids { display: flex; flex-wrap: wrap; gap: 10px; }
.mg-grids figure { margin: 0; width: 230px; }
.mg-closeup svg { display: block; width: 620px; max-width: 100%; height: auto; }
.mg-call-progress { font-size: 32px; }
.mg-call-progress p { font-size: 32px; margin: 4px 0; }
.mg-call-progress p.mg-called-list { font-size: 28px; }
.mg-called { display: flex; gap: 8px 28px; align-items: flex-start; }
.mg-called-now { font-size: 150px; line-height: 1.05; font-weight: bold; min-width: 1.3em;
  text-align: center; padding: 4px 18px; border: 4px solid #1a1a1a; border-radius: 16px;
  background: #fff; color: #1a1a1a; }
.mg-called-list { color: #333; }
.mg-still-placing { color: #8a4b00; }
.mg-seconds { flex-direction: row-reverse; }
.mg-seconds .widget-label { margin: 0 0 0 8px; }
.mg-chart-key { list-style: none; padding: 0; margin: 0 0 0 85px; font-size: 20px; }
.mg-chart-key span { display: inline-block; vertical-align: middle; }
.mg-class-chart .bqplot :is(.axis, .mainheading) text, .mg-class-chart .bqplot .mainheading {
  font-size: 20px !important; }
a.mg-csv-link { display: inline-block; padding: 8px 16px; border: 1px solid #0b5cad;
  border-radius: 4px; background: #fff; color: #0b5cad; font-size: 18px;
  text-decoration: none; margin: 0 0 0 12px; }
a.mg-csv-link:hover, a.mg-csv-link:focus { background: #e8f1fb; }
</style>"""


def random_scores(calls: list[int], samples: int = 2000, seed: int = 0) -> list[int]:
    """The scores of ``samples`` random players who place the same numbers anywhere.

    >>> scores = random_scores(list(range(1, 14)) + list(range(1, 13)), samples=50)
    >>> len(scores), min(scores) >= 0
    (50, True)
    """
    rng = random.Random(seed)
    grid = list(calls)
    scores = []
    for _k in range(samples):
        rng.shuffle(grid)
        scores.append(sum(line.points for _i, line in full_lines(grid)))
    return scores


def nice_ticks(top: float, count: int = 6,
               steps: tuple[float, ...] = (10, 20, 25, 50, 100, 200, 250, 500)) -> list[float]:
    """Tick values from 0 to ``top`` at the first of ``steps`` that needs at most ``count``
    + 1 ticks (a chart's labels, large enough for the back row, need room).

    >>> nice_ticks(464)
    [0, 100, 200, 300, 400, 500]
    >>> nice_ticks(0.16, steps=(0.01, 0.02, 0.05))
    [0.0, 0.05, 0.1, 0.15, 0.2]
    """
    step = next((s for s in steps if top / s <= count), steps[-1])
    return [round(k * step, 6) for k in range(int(-(-top // step)) + 1)]


def csv_link(text: str, name: str, label: str) -> str:
    """A link that downloads ``text`` as the CSV file ``name``.csv, reading ``label``.

    >>> csv_link("a,b", "class-K3M9T", "Download").startswith('<a class="mg-csv-link"')
    True
    """
    href = "data:text/csv;charset=utf-8," + quote(text)
    return (f'<a class="mg-csv-link" download="{esc(name)}.csv" href="{esc(href)}">'
            f"{esc(label)}</a>")


def ranking_table(title: str, standings: list[Standing]) -> str:
    """A ranking as an HTML table under its title (place, name, points).

    >>> "<td>Ann</td>" in ranking_table("Ranking", [Standing(1, "p1", "Ann", 80)])
    True
    """
    rows = "".join(f'<tr><td class="mg-rank">{s.rank}</td><td>{esc(s.name)}</td>'
                   f'<td class="mg-points">{s.points}</td></tr>' for s in standings)
    return (f"<h3>{esc(title)}</h3><table><tr><th>{esc(_('Place'))}</th>"
            f"<th>{esc(_('Name'))}</th><th>{esc(_('Points'))}</th></tr>{rows}</table>")


def refill(pick: w.Dropdown, options: list[tuple[str, str]], keep: str | None) -> None:
    """Give ``pick`` these (label, value) options if they changed, showing ``keep`` if it is
    still one of them, else the first.

    >>> pick = w.Dropdown(options=[("Ann", "a"), ("Ben", "b")], value="b")
    >>> refill(pick, [("Ben", "b"), ("Cy", "c")], "b"); pick.value
    'b'
    >>> refill(pick, [("Cy", "c")], "b"); pick.value
    'c'
    """
    if list(pick.options) == options:
        return
    values = [value for _label, value in options]
    pick.options = options
    pick.value = keep if keep in values else values[0] if values else None


class TeacherPage(w.VBox):
    """Open a class and run a Matematiko game for it."""

    def __init__(self) -> None:
        self.room = classroom()
        self.state: ClassState | None = None
        self.token = ""
        self.feed: LiveFeed | None = None
        self._tables: dict[str, TableState] = {}  # the class's tables, read move by move
        self._auto_run = 0
        self.keeper = BoardWidget(label=_("class"), storage_key=STORAGE_KEY)
        self.keeper.layout.display = "none"
        self.keeper.on_stored(self.resume)
        self.open_button = w.Button(description=_("Open a new class"), button_style="primary",
                                     layout=w.Layout(width="auto"))
        self.open_button.add_class("mg-open-class")
        self.open_button.on_click(lambda _b: self.open_class())
        self.top = w.HTML("")
        self.top.add_class("mg-class-top-widget")
        self.call_button = w.Button(description=_("Call the next number"),
                                    button_style="success", layout=w.Layout(width="auto"))
        self.call_button.add_class("mg-call-button")
        self.call_button.on_click(lambda _b: self.call_by_button())
        self.auto = w.Checkbox(value=False, description=_("Call a number every"), indent=False,
                               layout=w.Layout(width="auto"))
        self.auto.add_class("mg-auto-call")
        self.seconds = w.BoundedIntText(value=20, min=3, max=300, description=_("seconds"),
                                        style={"description_width": "initial"},
                                        layout=w.Layout(width="auto"))
        self.seconds.add_class("mg-seconds")  # "Call a number every [20] seconds"
        self.auto.observe(lambda _c: self._auto_changed(), "value")
        # a text box, not a number box: a number box would quietly call 13 for a 14 typed
        # by mistake, and it sends nothing on Enter
        self.typed = w.Text(value="", description=_("From a real deck:"), placeholder="1-13",
                            style={"description_width": "initial"},
                            layout=w.Layout(width="auto"))
        self.typed.add_class("mg-typed-card")
        self.typed_button = w.Button(description=_("Call this card"),
                                     layout=w.Layout(width="auto"))
        self.typed_button.add_class("mg-call-typed")
        self.typed_button.on_click(lambda _b: self.call_typed())
        self.enter_card = EnterSubmits(self.typed_button, self.typed)  # Enter calls it too
        self.uncall_button = w.Button(description=_("Take back the last number"),
                                      icon="undo", layout=w.Layout(width="auto"))
        self.uncall_button.add_class("mg-uncall")
        self.uncall_button.on_click(lambda _b: self.ask_uncall())
        # a misplaced click would empty a cell in every grid: asked first, about that number
        self._uncall_asked: tuple[int, int] | None = None  # (index, card) asked about
        self.uncall_confirm = Confirm(self._uncall_question, self.uncall,
                                      lambda: (_("Yes, take it back"), _("No")))
        self.uncall_confirm.add_class("mg-uncall-confirm")
        self._resting = False  # the call button just called: a second click calls nothing
        # the teacher's controls in one row above the projector view (1280 px wide, in every
        # language): a click there does not move what the class reads
        row = w.HBox([self.call_button, self.auto, self.seconds, self.typed, self.typed_button,
                      self.enter_card, self.uncall_button])
        row.add_class("mg-teacher-controls")
        self.controls = w.VBox([row, self.uncall_confirm])
        self.message = w.HTML("")
        self.message.add_class("mg-teacher-message")
        self.progress = w.HTML("")
        self.progress.add_class("mg-call-progress")
        # the last number's placing can take a while: the teacher may show the results first
        self._results_now = 0  # the game whose results the teacher asked for at once
        self.show_now_button = w.Button(description=_("Show the results now"),
                                        layout=w.Layout(width="auto", display="none"))
        self.show_now_button.add_class("mg-show-results")
        self.show_now_button.on_click(lambda _b: self.show_results_now())
        self.students = w.HTML("")
        self.students.add_class("mg-students")
        # a name that should not be on the projector: off the class
        self.remove_pick = w.Dropdown(options=[], description=_("Student"),
                                      style={"description_width": "initial"},
                                      layout=w.Layout(width="auto"))
        self.remove_button = w.Button(description=_("Remove from the class"), icon="user-times",
                                      layout=w.Layout(width="auto"))
        self.remove_button.add_class("mg-remove-student")
        self.remove_button.on_click(lambda _b: self.remove_confirm.ask())
        self.remove_confirm = Confirm(
            lambda: _("Remove {name} from the class?").format(name=self.remove_pick.label),
            self.remove_student, lambda: (_("Yes, remove"), _("No")))
        self.remove_confirm.add_class("mg-remove-confirm")
        self.remove_pick.observe(lambda _c: self.remove_confirm.hide(), "value")  # asked anew
        self.remove_box = w.VBox([w.HBox([self.remove_pick, self.remove_button]),
                                  self.remove_confirm])
        self.remove_box.add_class("mg-remove-box")
        self.ranking = w.HTML("")
        self.ranking.add_class("mg-ranking")
        self.grids = w.HTML("")
        self.grids.add_class("mg-grids-widget")
        # one grid drawn large, for the class to talk about on the projector
        self.closeup_pick = w.Dropdown(options=[], description=_("Show up close"),
                                       style={"description_width": "initial"},
                                       layout=w.Layout(width="auto"))
        self.closeup_pick.add_class("mg-closeup-pick")
        self.closeup_pick.observe(self._closeup_picked, "value")
        self._winner_shown = True  # until the teacher picks another grid
        self.closeup = w.HTML("")
        self.closeup.add_class("mg-closeup")
        self.export = w.HTML("")
        self.export.add_class("mg-csv")
        self.again_button = w.Button(description=_("Play again with this class"),
                                     button_style="primary", icon="repeat",
                                     layout=w.Layout(width="auto"))
        self.again_button.add_class("mg-again")
        self.again_button.on_click(lambda _b: self.again_confirm.ask())
        self.again_confirm = Confirm(
            lambda: _("Start the next game? These grids leave the screen; their points count "
                      "in the totals."),
            self.again, lambda: (_("Yes, the next game"), _("No, stay on the results")))
        self.again_confirm.add_class("mg-again-confirm")
        self.totals = w.HTML("")
        self.totals.add_class("mg-totals")
        self.chart_box = w.VBox([])
        self.tables = w.HTML("")
        self.tables.add_class("mg-tables")
        # the ranking on the projector beside the code; the rest of the results below
        self.ranking_box = w.HBox([self.ranking, self.totals])
        self.ranking_box.add_class("mg-ranking-box")
        self.ranking_box.layout.display = "none"
        self.results = w.VBox([w.HBox([self.again_button, self.export]), self.again_confirm,
                               w.HBox([self.closeup_pick]), self.closeup, self.chart_box,
                               self.grids])
        self.results.add_class("mg-class-results")
        self.results.layout.display = "none"
        # the students' names leave the server when the teacher says (or after the days
        # the store keeps a class): far from the other buttons, and asked first
        self.delete_button = w.Button(description=_("Delete this class"), icon="trash",
                                      layout=w.Layout(width="auto"))
        self.delete_button.add_class("mg-delete-class")
        self.delete_button.on_click(lambda _b: self.delete_confirm.ask())
        self.delete_confirm = Confirm(self._delete_question, self.delete_class,
                                      lambda: (_("Yes, delete it"), _("No")))
        self.delete_confirm.add_class("mg-delete-confirm")
        # another class, opened from the bottom while one shows (the top keeps to the class)
        self.open_another = w.Button(description=_("Open a new class"),
                                     layout=w.Layout(width="auto"))
        self.open_another.add_class("mg-open-another")
        self.open_another.on_click(lambda _b: self.open_class())
        self.delete_box = w.VBox([w.HBox([self.open_another, self.delete_button]),
                                  self.delete_confirm], layout=w.Layout(margin="32px 0 0 0"))
        # the projector view: the number called (or the ranking) beside the class code
        self.stage = w.HBox([self.progress, self.ranking_box, self.top])
        self.stage.add_class("mg-stage")
        self.game = w.VBox([self.controls, self.message, self.stage, self.show_now_button,
                            self.students, self.results, self.remove_box, self.tables,
                            self.delete_box])
        self.game.layout.display = "none"
        self.notice = w.HTML("")  # what became of a class this page no longer shows
        self.notice.add_class("mg-teacher-notice")
        self._chart_for: tuple[int, ...] | None = None
        self.open_box = w.HBox([self.open_button])  # below, by Delete, once a class shows
        super().__init__([w.HTML(STYLE), self.open_box, self.notice, self.keeper, self.game])
        self.add_class("mg-teacher-page")
        self.add_class("mg-app")  # the game pages' sizes for a projector and a phone

    # -- the class -----------------------------------------------------------------------------
    def open_class(self) -> None:
        """Open a new class (what "Open a new class" does)."""
        try:
            code, token = self.room.open_class()
        except MathgamesError as error:  # the store refused (a wrong setting, say)
            self.notice.value = message_html(str(error))
            return
        self._enter(self.room.load_class(code), token)

    def resume(self, kept: str) -> None:
        """Take back the class this browser opened (after a reload)."""
        try:
            data = read_pass(kept, _("This browser's pass for the class is damaged: open a "
                                     "new class"))
            state = self.room.load_class(normalize_code(data["code"]))
            self.room.check_teacher(state, data.get("token"))
        except UnknownSessionError:  # deleted, or idle longer than a class is kept: forgotten
            self.keeper.storage_value = ""
            self._say_gone(normalize_code(data["code"]))
            return
        except MathgamesError as error:
            self.notice.value = message_html(str(error))
            return
        self._enter(state, data["token"])

    def _enter(self, state: ClassState, token: str) -> None:
        self.state, self.token = state, token
        self._tables = {}  # another class: its own tables
        self._winner_shown = True
        self.keeper.storage_value = json.dumps({"code": state.code, "token": token})
        self.game.layout.display = None
        self.open_box.layout.display = "none"
        self.notice.value = ""
        self.delete_confirm.hide()
        if self.feed is not None:
            self.feed.stop()
        self.feed = LiveFeed(self.room.store, state.code, state.seq, self._new_events,
                             on_gone=self._gone).start()
        address = join_address(os.environ.get("VOILA_REQUEST_URL", ""), state.code)
        qr = qr_svg(address).replace("<svg", '<svg role="img" aria-label="'
                                     + esc(_("QR code of the address")) + '"', 1)
        self.top.value = (
            '<div class="mg-class-top"><div>'
            f'<div class="mg-class-label">{esc(_("Class code"))}</div>'
            f'<div class="mg-class-code" data-code="{esc(state.code)}">{esc(state.code)}</div>'
            f'<div class="mg-address">{esc(_("Students open"))} '
            f'<a href="{esc(address)}" target="_blank">{address_breaks(address)}</a></div></div>'
            f"{qr}</div>")
        asyncio.get_event_loop().create_task(self._watch_tables(state.code))
        self.redraw()

    def _new_events(self, _events: list[Event]) -> None:
        if self.state is not None:
            self.state = self.room.refresh(self.state)
            self.redraw()

    async def _watch_tables(self, code: str) -> None:
        while self.state is not None and self.state.code == code:
            try:
                self.show_tables()
            except Exception as error:  # the store is back soon; the page stays
                self.tables.value = f"<p>{esc(str(error))}</p>"
            await asyncio.sleep(3)

    # -- deleting ------------------------------------------------------------------------------
    def _delete_question(self) -> str:
        assert self.state is not None
        n = len(self.state.students)
        question = _("Delete the class {code} from the server for good?").format(
            code=self.state.code)
        if n:
            question += " " + _.ngettext(
                "The first name and grid of its {n} student go, with its tables: download the "
                "results first.",
                "The first names and grids of its {n} students go, with its tables: download "
                "the results first.", n).format(n=n)
        return question

    def delete_class(self) -> None:
        """Delete the class and its tables from the store (what "Yes, delete it" does): the
        students' pages say so and show the join form; this page can open a new class."""
        state = self.state
        if state is None:
            return
        try:
            self.room.delete_class(state.code, self.token)
        except UnknownSessionError:
            pass  # already gone (from another tab, or idle too long): the same end
        except MathgamesError as error:
            self.message.value = message_html(str(error))
            return
        self._closed()
        text = _("The class {code} is deleted: none of its names or grids is left on the "
                 "server.").format(code=state.code)
        self.notice.value = message_html(text, role="status")

    def _gone(self) -> None:
        """The class left the store while this page showed it (deleted in another tab, or
        idle longer than the store keeps one): the page says so and forgets it."""
        if self.state is not None:
            code = self.state.code
            self._closed()
            self._say_gone(code)

    def _say_gone(self, code: str) -> None:
        text = _("The class {code} is no longer on the server: it was deleted.").format(
            code=code)
        self.notice.value = message_html(text)

    def _closed(self) -> None:
        """Forget the class: no feed, no calling, nothing kept in the browser."""
        if self.feed is not None:
            self.feed.stop()
        self.feed = None
        self.auto.value = False
        self.state, self.token = None, ""
        self._uncall_asked = None
        self.keeper.storage_value = ""
        self.delete_confirm.hide()
        self.game.layout.display = "none"
        self.open_box.layout.display = None

    # -- calling -------------------------------------------------------------------------------
    def _act(self, action: Callable[[ClassState], ClassState], done: str = "") -> bool:
        """Do a teacher's ``action`` on the class and redraw; then say ``done``, or why the
        class refused (the page then shows the class as the log has it). True if the class
        took it."""
        assert self.state is not None
        try:
            self.state = action(self.state)
        except UnknownSessionError:
            self._gone()
            return False
        except MathgamesError as error:  # the attempt has brought the state up to date
            self.message.value = message_html(str(error))
            taken = False
        else:
            self.message.value = message_html(done, role="status") if done else ""
            taken = True
        self.redraw()
        return taken

    def call(self, card: int | None = None) -> bool:
        """Call the deck's next number, or ``card`` typed from a real deck; True if called."""
        return self.state is not None and self._act(
            lambda s: self.room.call(s.code, self.token, card, state=s))

    def call_by_button(self) -> None:
        """What "Call the next number" does: call, then rest the button for
        :data:`DOUBLE_CLICK` s (greyed out in the browser, and a click that comes anyway is
        ignored): a double-click, or a second click on a slow screen, calls one number."""
        if self._resting:
            return
        self._resting = True
        self.call_button.disabled = True
        try:
            self.call()
        finally:
            asyncio.get_event_loop().call_later(DOUBLE_CLICK, self._rested)

    def _rested(self) -> None:
        self._resting = False
        self.call_button.disabled = self.state is not None and self.state.is_over

    def call_typed(self) -> None:
        """Call the card typed in the "Card" box (what "Call this card" and Enter in the box
        do). The box empties once the card is called, for the next one; anything but a
        number from 1 to 13 is refused with a message, and the box keeps it to mend."""
        if self.state is None:
            return
        text = self.typed.value.strip()
        # The class itself checks 1 to 13; a number of more than 3 digits (pasted by
        # mistake, or forged) is refused here, quoted short, before int() reads it.
        if not (text.isascii() and text.isdigit() and len(text) <= 3):
            refusal = (_("Cards are numbers from 1 to 13: "
                          "{card} is not one").format(card=in_quotes(shorten(text))) if text
                       else _("Type the number of the card first: 1 to 13"))
            self.message.value = message_html(refusal)
        elif self.call(int(text)):
            self.typed.value = ""
            if text != str(int(text)):  # "013": called as the 13, and said so
                self.message.value = message_html(
                    _("{typed} is called as the {card}").format(typed=text, card=int(text)),
                    role="status")

    def ask_uncall(self) -> None:
        """Ask before taking back the last number (what "Take back the last number" does):
        the question names the number and how many students have placed it."""
        if self.state is None:
            return
        self.state = self.room.refresh(self.state)  # who has placed it, as of now
        self.redraw()
        if not self.state.calls:
            return
        self._uncall_asked = (len(self.state.calls) - 1, self.state.calls[-1])
        self.uncall_confirm.ask()

    def _uncall_question(self) -> str:
        assert self.state is not None and self._uncall_asked is not None
        card = self._uncall_asked[1]
        placed = len(self.state.students) - len(self.state.waiting())
        question = _("Take back the {card}?").format(card=card)
        if placed:
            question += " " + _.ngettext("{n} student has placed it: it leaves their grid.",
                                         "{n} students have placed it: it leaves their grids.",
                                         placed).format(n=placed)
        if self.state.is_over:
            question += " " + _("The results leave the screen until a 25th number is called.")
        return question

    def uncall(self) -> None:
        """Take back the number asked about (what "Yes, take it back" does): a card typed
        wrong. Calling a number every few seconds stops, for the teacher to go on. If
        another number was called meanwhile, nothing is taken back and the page says so."""
        if self.state is None or self._uncall_asked is None:
            return
        index, card = self._uncall_asked
        self._uncall_asked = None
        self.auto.value = False
        self._results_now = 0  # a 25th number again: its results wait for the placing
        self._act(lambda s: self.room.uncall(s.code, self.token, index, state=s),
                  _("The {card} is taken back").format(card=card))

    def remove_student(self) -> None:
        """Take the student picked beside "Remove from the class" off the class (what its
        "Yes, remove" does)."""
        state, pid = self.state, self.remove_pick.value
        if state is None or pid not in state.students:
            return
        self._act(lambda s: self.room.remove_student(s.code, self.token, pid, state=s),
                  _("{name} is no longer in the class").format(name=state.students[pid].name))

    def again(self) -> None:
        """A new game for the same class (what "Play again with this class" does, once
        confirmed): a freshly shuffled deck, the same students with empty grids, the games'
        totals kept."""
        if self.state is not None:
            self._winner_shown = True
            self._act(lambda s: self.room.again(s.code, self.token, state=s))

    def _auto_changed(self) -> None:
        self._auto_run += 1
        if self.auto.value:
            asyncio.get_event_loop().create_task(self._auto_call(self._auto_run))

    async def _auto_call(self, run: int) -> None:
        while run == self._auto_run and self.state is not None and not self.state.is_over:
            await asyncio.sleep(self.seconds.value)
            if run == self._auto_run:
                self.call()
        if self.state is not None and self.state.is_over:
            self.auto.value = False

    # -- drawing -------------------------------------------------------------------------------
    def show_results_now(self) -> None:
        """Show this game's results before everyone has placed the last number (what "Show
        the results now" does: a student left, or the lesson goes on)."""
        if self.state is not None and self.state.is_over:
            self._results_now = self.state.game
            self.redraw()

    @property
    def results_shown(self) -> bool:
        """Whether the results are on the page: once every student has placed the 25th
        number, or earlier if the teacher asked (:meth:`show_results_now`)."""
        state = self.state
        return state is not None and state.is_over and (
            state.is_finished or self._results_now == state.game)

    def redraw(self) -> None:
        state = self.state
        if state is None:
            return
        called = len(state.calls)
        waiting = set(state.waiting())
        shown = self.results_shown
        if called:
            head = _("Number {k} of 25: {card}").format(k=called, card=state.calls[-1])
        else:
            head = _("No number called yet")
        if state.game > 1:
            head = _("Game {n}").format(n=state.game) + " · " + head
        players = state.players()
        placed = len(players) - len(waiting)
        line = _("{placed} of {n} have placed it").format(placed=placed, n=len(players))
        progress = (f'<p data-called="{called}" data-waiting="{len(waiting)}">'
                    f"<b>{esc(head)}</b> · {esc(line)}</p>")
        if state.is_over and waiting:  # the results wait for the last placements
            still = _.ngettext("{n} student is still placing the last number",
                               "{n} students are still placing the last number",
                               len(waiting)).format(n=len(waiting))
            progress += f'<p class="mg-still-placing" role="status">{esc(still)}</p>'
        if called:  # the number as large as can be, for the back row; and the others
            so_far = _("Called so far: {numbers}").format(
                numbers=", ".join(str(card) for card in state.calls))
            progress = (f'<div class="mg-called"><div class="mg-called-now" aria-hidden="true">'
                        f'{state.calls[-1]}</div><div>{progress}'
                        f'<p class="mg-called-list">{esc(so_far)}</p></div></div>')
        self.progress.value = progress
        # the stage: the code and its QR code to join by; then the number called beside
        # them, stepped back (still there for a latecomer); then the ranking
        self.progress.layout.display = "none" if shown or not called else None
        self.show_now_button.layout.display = (
            None if state.is_over and waiting and not shown else "none")
        if called:  # (both leave the classes as they are when there is nothing to change)
            self.top.add_class("mg-calling")
        else:
            self.top.remove_class("mg-calling")
        items = []
        for student in state.students.values():
            points = f" <small>({student.points})</small>"
            if student.next_game:
                mark, label, kind = "⏳", _("plays from the next game"), "next"
            elif not called:  # nothing to place yet: in the class, no points to show
                mark, label, kind, points = "•", _("joined"), "joined", ""
            elif student.pid in waiting:
                mark, label, kind = "…", _("thinking"), "thinking"
            else:
                mark, label, kind = "✓", _("placed"), "placed"
            items.append(f'<li data-state="{kind}">'
                         f'<span aria-label="{esc(label)}">{mark}</span> {esc(student.name)}'
                         f"{points}</li>")
        title = _.ngettext("{n} student", "{n} students", len(state.students)).format(
            n=len(state.students))
        self.students.value = f"<h3>{esc(title)}</h3><ul>{''.join(items)}</ul>"
        self.students.layout.display = "none" if shown else None  # the ranking says it
        options = [(student.name, student.pid) for student in state.students.values()]
        refill(self.remove_pick, options, self.remove_pick.value)
        self.remove_box.layout.display = None if options else "none"
        self.call_button.disabled = state.is_over or self._resting
        self.typed_button.disabled = state.is_over
        self.uncall_button.disabled = not state.calls
        if self._uncall_asked is not None and (
                self._uncall_asked != (called - 1, state.calls[-1] if called else None)):
            self._uncall_asked = None  # another number came: the question is out of date
            self.uncall_confirm.hide()
        # the results of a class opened before on this page go when a new one opens
        self.results.layout.display = None if shown else "none"
        self.ranking_box.layout.display = None if shown else "none"
        if shown:
            self.show_results()

    def show_results(self) -> None:
        state = self.state
        assert state is not None
        self.ranking.value = ranking_table(_("Ranking"), state.standings())
        if state.past:
            self.totals.value = ranking_table(
                _.ngettext("Total of {n} game", "Total of {n} games", state.game).format(
                    n=state.game), state.totals())
        self.totals.layout.display = None if state.past else "none"
        figures = "".join(  # a finished grid: no card to place, so no card's box
            f'<figure>{render_grid(s.grid, placing=False, player=s.name, card_box=False)}'
            "</figure>"
            for s in (state.students[x.pid] for x in state.standings()))
        self.grids.value = f'<div class="mg-grids">{figures}</div>'
        # the winner first; a grid already shown stays shown when the results redraw
        winner_shown = self._winner_shown
        refill(self.closeup_pick,
               [(f"{s.rank}. {s.name} ({s.points})", s.pid) for s in state.standings()],
               None if winner_shown else self.closeup_pick.value)
        self._winner_shown = winner_shown  # refilling is not the teacher's pick
        self._show_closeup()
        name = f"class-{state.code}" + (f"-{state.game}" if state.past else "")
        links = csv_link(state.csv(), name, _("Download the results (CSV)"))
        if state.past:  # and the whole session: every game and the totals
            links += csv_link(state.session_csv(), f"class-{state.code}-all",
                              _("Download all {n} games and the totals (CSV)").format(
                                  n=state.game))
        self.export.value = links
        key = (state.game, len(state.students), *state.calls,
               *(s.points for s in state.standings()))
        if key != self._chart_for:
            self._chart_for = key
            self.chart_box.children = [self.chart()]

    def _closeup_picked(self, change: dict[str, Any]) -> None:
        options = self.closeup_pick.options
        self._winner_shown = bool(options) and change["new"] == options[0][1]
        self._show_closeup()

    def _show_closeup(self) -> None:
        """Draw the grid picked in "Show up close" large (nothing before the results)."""
        state = self.state
        student = None if state is None else state.students.get(self.closeup_pick.value)
        self.closeup.value = ("" if student is None else
                              render_grid(student.grid, placing=False, player=student.name,
                                          card_box=False))

    def chart(self) -> w.Widget:
        """The class's scores beside a random player and the bots on the same numbers."""
        state = self.state
        assert state is not None and len(state.calls) == DEAL_LENGTH
        standings = state.standings()
        names = [s.name for s in standings] or ["-"]
        points = [s.points for s in standings] or [0]
        bots = bot_scores(state.calls, seed=state.seed)
        mean = round(float(expected_random_score()), 1)
        x, y = bq.OrdinalScale(), bq.LinearScale(min=0)
        bars = bq.Bars(x=names, y=points, scales={"x": x, "y": y}, colors=["#0072B2"],
                       labels=[_("class")])
        marks: list[Any] = [bars]
        lines = [(_("a random player on average (exact)"), mean, "#D55E00")]
        lines += [(_("bot: {name}").format(name=name), float(score), colour)
                  for (name, score), colour in zip(bots.items(),
                                                   ("#999999", "#009E73", "#CC79A7"), strict=False)]
        for label, value, colour in lines:
            marks.append(bq.Lines(x=[names[0], names[-1]], y=[value, value],
                                  scales={"x": x, "y": y}, colors=[colour], labels=[label],
                                  stroke_width=3))
        # labels at 20 px, for the back row: the axes' names clear of the ticks' numbers
        left = bq.Figure(marks=marks, axes=[bq.Axis(scale=x, label=_("student"),
                                                    label_offset="48px"),
                                            bq.Axis(scale=y, orientation="vertical",
                                                    label=_("points"), label_offset="62px",
                                                    tick_values=nice_ticks(max(
                                                        [*points, *(v for _l, v, _c in lines)])))],
                         title=_("The class's scores"),
                         fig_margin={"top": 50, "bottom": 60, "left": 85, "right": 20},
                         layout=w.Layout(width="560px", height="400px"))
        y.max = float(left.axes[1].tick_values[-1])  # the scale reaches the last tick
        sample = random_scores(state.calls, seed=state.seed)
        width = 10
        counts: dict[int, int] = {}
        for score in sample:
            counts[score // width * width] = counts.get(score // width * width, 0) + 1
        hx, hy = bq.LinearScale(min=0), bq.LinearScale(min=0)
        keys = sorted(counts)
        histogram = bq.Bars(x=keys, y=[counts[k] / len(sample) for k in keys],
                            scales={"x": hx, "y": hy}, colors=["#E69F00"], padding=0.05,
                            labels=[_("random placements of these numbers")])
        top = max(counts.values()) / len(sample)
        class_marks = bq.Scatter(x=points, y=[top * 1.05] * len(points),
                                 scales={"x": hx, "y": hy}, colors=["#0072B2"],
                                 labels=[_("class")])
        right = bq.Figure(marks=[histogram, class_marks],
                          axes=[bq.Axis(scale=hx, label=_("points"), label_offset="48px",
                                        tick_values=nice_ticks(max(keys[-1] + width,
                                                                   *points))),
                                bq.Axis(scale=hy, orientation="vertical", tick_format=".0%",
                                        label=_("share of random players"),
                                        label_offset="62px",
                                        tick_values=nice_ticks(top * 1.05, steps=(
                                            0.01, 0.02, 0.05, 0.1, 0.2, 0.5)))],
                          title=_("A random player on the same numbers"),
                          fig_margin={"top": 50, "bottom": 60, "left": 85, "right": 20},
                          layout=w.Layout(width="560px", height="400px"))
        hx.max, hy.max = (float(axis.tick_values[-1]) for axis in right.axes)
        # The keys as text below the charts (a legend box would cover the bars or the
        # class's dots above them).
        key = w.HTML("<ul class='mg-chart-key'>" + "".join(
            f"<li><span style='width:28px;height:4px;background:{colour}'></span> "
            f"{esc(label)}: <b>{value:g}</b></li>" for label, value, colour in lines) + "</ul>")
        right_key = w.HTML(
            "<ul class='mg-chart-key'>"
            "<li><span style='width:14px;height:14px;background:#E69F00'></span> "
            f"{esc(_('random placements of these numbers'))}</li>"
            "<li><span style='width:12px;height:12px;border-radius:6px;background:#0072B2;"
            f"margin:0 1px'></span> {esc(_('class'))}</li></ul>")
        box = w.HBox([w.VBox([left, key]), w.VBox([right, right_key])])
        box.add_class("mg-class-chart")
        return box

    def show_tables(self) -> None:
        state = self.state
        if state is None:
            return
        rows = []
        tables = [t for t in self.room.tables_of(state.code, self._tables) if t.has_student]
        # a table whose players moved on to their next game shows as that game's history
        shown = {table.code for table in tables}
        before = {t.next_table: t for t in tables if t.next_table in shown}
        for table in tables:
            if table.next_table in shown:
                continue
            names = [table.player_name(i) or "-" for i in range(len(table.seats))]
            scores = table.scores()
            if scores is not None:  # each player's points so far, live
                names = [f"{name} {format_number(points)}"
                         for name, points in zip(names, scores, strict=True)]
            players = ", ".join(esc(name) for name in names)
            if table.is_over:
                where = _("over: {result}").format(result=table.result())
            elif table.started:
                where = _("move {n}").format(n=table.ply + 1)
            else:
                where = _("waiting for players")
            earlier, game = [], before.get(table.code)
            while game is not None:  # the same players' earlier games, the first first
                earlier.insert(0, game.result())
                game = before.get(game.code)
            if earlier:
                where += " · " + _("earlier games: {list}").format(list="; ".join(earlier))
            title = game_title(table.game_name)
            # the table's page, watched without a seat (in a new tab: this page stays)
            watch = f"table.ipynb?lang={get_language()}&watch={quote(table.code)}"
            # its name starts as the link reads, and says where it opens
            said = _("Watch table {code} (opens a new tab)").format(code=table.code)
            rows.append(f"<li><b>{esc(table.code)}</b> {esc(title)}: {players} "
                        f'({esc(where)}) <a class="mg-watch-table" href="{esc(watch)}" '
                        f'target="_blank" rel="noopener" aria-label="{esc(said)}">'
                        f'{esc(_("watch"))}</a></li>')
        body = "".join(rows) or f"<li>{esc(_('No table yet'))}</li>"
        self.tables.value = f"<h3>{esc(_('Tables of this class'))}</h3><ul>{body}</ul>"

    def close(self) -> None:
        if self.feed is not None:
            self.feed.stop()
        self.state = None
        super().close()
