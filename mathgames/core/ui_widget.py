"""Pieces every game page shares: the "How to play" panel, a question before a game is
thrown away, and tooltips that never read "null".

>>> panel = HowToPlay(lambda: "<p>Roll the dice.</p>")
>>> panel.panel.layout.display
'none'
>>> panel.button.value = True
>>> panel.panel.layout.display is None and "Roll the dice." in panel.text.value
True
>>> asked = Confirm(lambda: "Throw the game away?", lambda: None)
>>> asked.layout.display
'none'
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

import anywidget
import ipywidgets as w
import traitlets

from mathgames.core.board_widget import STATIC
from mathgames.core.errors import shorten
from mathgames.core.i18n import translator
from mathgames.core.levels import Level
from mathgames.core.svg import esc
from mathgames.core.widget_looks import shared_look

__all__ = ["Confirm", "EnterSubmits", "HowToPlay", "PageHelper", "ZoomButtons", "by_pointer",
           "fill_tooltips", "level_help", "section"]

_ = translator("core")

log = logging.getLogger("mathgames.ui")


def section(title: str, body: str) -> str:
    """One part of a "How to play" panel: a heading and its HTML body.

    >>> section("Goal", "<p>Win.</p>")
    '<section class="mg-howto-part"><h3>Goal</h3><p>Win.</p></section>'
    """
    return f'<section class="mg-howto-part"><h3>{esc(title)}</h3>{body}</section>'


def by_pointer(mouse: str, touch: str) -> str:
    """Two wordings of one instruction: the page's CSS shows the one for the visitor's
    pointer (mouse and keys, or a touch screen). Both texts are escaped here.

    >>> by_pointer("Click <here>", "Tap")
    "<span class='mg-mouse-only'>Click &lt;here&gt;</span><span class='mg-touch-only'>Tap</span>"
    """
    return (f"<span class='mg-mouse-only'>{esc(mouse)}</span>"
            f"<span class='mg-touch-only'>{esc(touch)}</span>")


def level_help(levels: Mapping[str, Level], label: Callable[[str], str]) -> str:
    """A set-up panel's words on its bot levels, in the current language.

    First each level as a student hears it (what it plays like, how strong it is),
    then, behind a "How strong?" disclosure, what the bench measured, for teachers.
    The disclosure is a ``<details>`` element: its summary is reached with Tab and
    opened with Enter or Space, and a screen reader says whether it is open.
    ``label`` names a level (``"easy"`` -> ``"Bot: easy"``).

    >>> from mathgames.core.levels import Level
    >>> levels = {"easy": Level("easy", lambda seed, clock: None, {"ms": 0.2},
    ...                         lambda f: "For beginners.", lambda f: "0.2 ms a move.")}
    >>> html = level_help(levels, str.title)
    >>> html.index("For beginners.") < html.index("<summary>How strong?") < html.index("0.2 ms")
    True
    """
    def items(words: Callable[[Level], str]) -> str:
        return "".join(f"<li><b>{esc(label(name))}</b>: {esc(words(level))}</li>"
                       for name, level in levels.items())

    return (f'<ul class="mg-level-words">{items(lambda level: level.description)}</ul>'
            f'<details class="mg-level-figures"><summary>{esc(_("How strong?"))}</summary>'
            f'<p>{esc(_("What the bench measured, for teachers:"))}</p>'
            f'<ul>{items(lambda level: level.measured)}</ul></details>')


class HowToPlay(w.VBox):
    """A "How to play" button and the panel it opens, large enough for a projector.

    ``content`` returns the panel's HTML in the current language (it is called
    each time the panel opens or :meth:`refresh` runs, so it follows the game's
    chosen rules and the language). Show :attr:`button` wherever it fits; the
    panel itself is this box.
    """

    def __init__(self, content: Callable[[], str]) -> None:
        self._content = content
        self.button = w.ToggleButton(value=False, icon="question-circle",
                                     layout=shared_look(w.Layout, width="auto"))
        self.button.add_class("mg-howto-button")
        self.text = w.HTML()
        self.close_button = w.Button(icon="times", layout=shared_look(w.Layout, width="auto"))
        self.close_button.add_class("mg-howto-close")
        super().__init__([self.text, self.close_button], layout=w.Layout(display="none"))
        self.add_class("mg-howto")
        self.button.observe(lambda _c: self.refresh(), "value")
        self.close_button.on_click(lambda _b: setattr(self.button, "value", False))
        self.refresh()

    @property
    def panel(self) -> HowToPlay:
        """The panel (this box), shown while the button is pressed."""
        return self

    def refresh(self) -> None:
        """Relabel (after a language change) and redraw the panel if it is open."""
        self.button.description = _("How to play")
        self.button.tooltip = _("How to play")
        self.close_button.description = _("Close")
        self.close_button.tooltip = _("Close")
        if self.button.value:
            self.text.value = self._content()
            self.layout.display = None
        else:
            self.layout.display = "none"


class Confirm(w.HBox):
    """A question bar with "yes" and "no" before something that cannot be taken back.

    ``question`` returns the question in the current language; ``on_yes`` runs when
    the user confirms. :meth:`ask` shows the bar. ``answers``, if given, returns the two
    buttons' labels (yes, no) in the current language; by default they speak of a new game.

    >>> done = []
    >>> bar = Confirm(lambda: "Start again?", lambda: done.append(1))
    >>> bar.ask(); bar.layout.display is None
    True
    >>> bar.yes_button.click(); done, bar.layout.display
    ([1], 'none')
    """

    def __init__(self, question: Callable[[], str], on_yes: Callable[[], Any],
                 answers: Callable[[], tuple[str, str]] | None = None) -> None:
        self._question = question
        self._on_yes = on_yes
        self._answers = answers or (lambda: (_("Yes, a new game"), _("No, keep playing")))
        self.text = w.HTML()
        self.yes_button = w.Button(button_style="danger", icon="check",
                                   layout=shared_look(w.Layout, width="auto"))
        self.yes_button.add_class("mg-confirm-yes")
        self.no_button = w.Button(icon="times", layout=shared_look(w.Layout, width="auto"))
        self.no_button.add_class("mg-confirm-no")
        super().__init__([self.text, self.yes_button, self.no_button], layout=w.Layout(
            display="none", flex_flow="row wrap", align_items="center"))
        self.add_class("mg-confirm")
        self.yes_button.on_click(lambda _b: self._yes())
        self.no_button.on_click(lambda _b: self.hide())

    def ask(self) -> None:
        """Show the question."""
        self.text.value = f"<b>{esc(self._question())}</b>&nbsp;"
        self.yes_button.description, self.no_button.description = self._answers()
        self.yes_button.tooltip = self.yes_button.description
        self.no_button.tooltip = self.no_button.description
        self.layout.display = None

    def hide(self) -> None:
        """Hide the question; nothing happens."""
        self.layout.display = "none"

    def _yes(self) -> None:
        self.hide()
        self._on_yes()


class ZoomButtons(w.HBox):
    """Magnifier buttons for a board: above 1 the board's picture grows by that factor
    and the board scrolls (on a phone a finger needs squares about twice a mouse's).

    >>> from mathgames.core.board_widget import BoardWidget
    >>> zoom = ZoomButtons(BoardWidget())
    >>> zoom.step(+1); zoom.board.zoom, zoom.zoom_out.disabled
    (1.6, False)
    >>> zoom.step(+5); zoom.board.zoom, zoom.zoom_in.disabled
    (2.4, True)
    """

    def __init__(self, board: Any, levels: tuple[float, ...] = (1.0, 1.6, 2.4)) -> None:
        self.board, self.levels = board, levels
        self.zoom_out = w.Button(icon="search-minus", layout=shared_look(w.Layout, width="auto"))
        self.zoom_out.add_class("mg-zoom-out")
        self.zoom_in = w.Button(icon="search-plus", layout=shared_look(w.Layout, width="auto"))
        self.zoom_in.add_class("mg-zoom-in")
        self.zoom_out.on_click(lambda _b: self.step(-1))
        self.zoom_in.on_click(lambda _b: self.step(+1))
        super().__init__([self.zoom_out, self.zoom_in])
        self.relabel()
        self.step(0)

    def step(self, by: int) -> None:
        """Zoom in (``by`` > 0) or out by that many levels, within the levels."""
        level = self.levels.index(self.board.zoom) if self.board.zoom in self.levels else 0
        level = max(0, min(len(self.levels) - 1, level + by))
        self.board.zoom = self.levels[level]
        self.zoom_in.disabled = level == len(self.levels) - 1
        self.zoom_out.disabled = level == 0

    def relabel(self) -> None:
        """The buttons' names in the current language."""
        self.zoom_in.tooltip = _("Zoom in")
        self.zoom_out.tooltip = _("Zoom out")


def fill_tooltips(widget: Any) -> None:
    """Give every control under ``widget`` a tooltip equal to its label when it has none
    (an empty tooltip reads "null" in the browser).

    >>> box = w.VBox([w.Dropdown(options=[1], description="Players"), w.Button(icon="undo")])
    >>> fill_tooltips(box); box.children[0].tooltip
    'Players'
    """
    for child in getattr(widget, "children", ()):
        fill_tooltips(child)
    description = getattr(widget, "description", None)
    if not (description and hasattr(widget, "tooltip")):
        return
    if not widget.tooltip or widget.tooltip == getattr(widget, "_mg_auto_tooltip", None):
        widget.tooltip = description  # follows the label into another language
        widget._mg_auto_tooltip = description


class PageHelper(anywidget.AnyWidget):
    """An invisible helper shown once on each page (by the page header): it names the
    controls that ipywidgets draws without a name (a slider's handle, the Play widget's
    buttons), in the page's language, so that screen readers can say what they are.

    A page whose address names no language (``?lang=``) is opened again in the first of
    the device's languages (``navigator.languages``) that the games speak, if that is not
    the page's: a class's join address carries no language, and each student's page
    follows their own device.

    It also watches the page's connection to its kernel: the browser sends a ``ping``
    every few seconds and this widget answers ``pong``. When the answers stop (or the
    kernel's websocket closes, or the device goes offline), the page says
    :attr:`texts` ``["lost"]`` and its controls go inactive; when the server answers again
    the page reconnects to its kernel if it still runs, and reloads itself if it is gone
    (ARCHITECTURE.md, "When the connection drops"). Anything else the browser sends is
    ignored.

    >>> sorted(PageHelper().labels)
    ['pause', 'play', 'repeat', 'stop', 'value']
    >>> PageHelper().languages
    ['en', 'pl', 'cs', 'ru']
    >>> helper = PageHelper()
    >>> helper.answer_ping(helper, {"type": "ping"}, []), helper.answer_ping(helper, "x", [])
    (True, False)
    """

    _esm = STATIC / "page.js"
    _css = STATIC / "page.css"
    labels = traitlets.Dict().tag(sync=True)
    texts = traitlets.Dict().tag(sync=True)
    language = traitlets.Unicode("en").tag(sync=True)
    languages = traitlets.List(traitlets.Unicode()).tag(sync=True)

    def __init__(self, **kwargs: Any) -> None:
        from mathgames.core.i18n import LANGUAGES, get_language

        super().__init__(**kwargs)
        self.language, self.languages = get_language(), list(LANGUAGES)
        self.labels = {"play": _("Play"), "pause": _("Pause"), "stop": _("Stop"),
                       "repeat": _("Repeat"), "value": _("Value")}
        self.texts = {"lost": _("Connection lost: reconnecting…")}
        self.on_msg(self.answer_ping)

    def answer_ping(self, _widget: Any, content: Any, _buffers: Any) -> bool:
        """Answer the browser's ``ping`` with a ``pong``; whether it was one."""
        if not (isinstance(content, dict) and content.get("type") == "ping"):
            return False
        self.send({"type": "pong"})
        return True


class EnterSubmits(anywidget.AnyWidget):
    """Enter in any of ``fields`` (text boxes) presses ``button``, as in a web form
    (or calls ``button`` when it is a function, for a form whose Enter depends on what
    is typed).

    The browser sends the Enter key at once but may hold back a text box's last
    keystrokes while the kernel is busy, so the button is not pressed on the key
    itself: this invisible widget first sends the browser a numbered echo, and presses
    the button when the echo comes back, after everything typed before the Enter key
    (the browser sends in order). A click on ``button`` in the browser waits for an echo
    in the same way (the click's message, too, is sent at once), and clicks that come
    faster than the echo press it once. A disabled button is not pressed. The browser's
    answers are untrusted: a message that is not an echo this widget sent is ignored
    with a warning; an older echo, or the same one again (from a second view of the
    page), is ignored quietly.
    Put the widget on the page beside the form (it draws nothing).

    >>> name, pressed = w.Text(), []
    >>> join = w.Button(description="Join")
    >>> join.on_click(lambda _b: pressed.append(name.value))
    >>> enter = EnterSubmits(join, name)
    >>> enter.press_enter()          # the Enter key: the echo goes to the browser
    >>> name.value = "Ben"           # the last keystrokes arrive
    >>> pressed
    []
    >>> enter.answer_echo()          # the browser's echo comes back: now the button
    >>> pressed
    ['Ben']
    """

    _esm = STATIC / "enter.js"

    def __init__(self, button: w.Button | Callable[[], Any], *fields: w.Text,
                 **kwargs: Any) -> None:
        super().__init__(**{"layout": w.Layout(), **kwargs})
        self.button = button
        self.awaited: int | None = None  # the echo that presses the button
        self._echoes = 0
        self.rejected_messages = 0
        self.layout.display = "none"
        for field in fields:
            field.on_msg(self._press_message)
        if isinstance(button, w.Button):
            # The browser's click reaches Python through the echo; button.click() from
            # Python (and the echo) still presses it at once.
            button.on_msg(button._handle_button_msg, remove=True)
            button.on_msg(self._press_message)
        self.on_msg(self._echo_message)

    def press_enter(self) -> None:
        """What Enter in one of the fields does: ask the browser for an echo."""
        self._echoes += 1
        self.awaited = self._echoes
        self.send({"type": "echo", "id": self._echoes})

    def answer_echo(self) -> None:
        """Answer the awaited echo from Python, as the browser would (for tests)."""
        self._echo_message(self, {"type": "echo", "id": self.awaited}, [])

    def _press_message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        """Enter in a field ("submit") or a click on the button: ask for the echo."""
        if isinstance(content, dict) and content.get("event") in ("submit", "click"):
            self.press_enter()

    def _echo_message(self, _widget: Any, content: Any, buffers: Any) -> None:
        echo = content.get("id") if isinstance(content, dict) else None
        if (buffers or not isinstance(content, dict) or content.get("type") != "echo"
                or type(echo) is not int or not 1 <= echo <= self._echoes):
            self.rejected_messages += 1
            log.warning("Enter helper ignored a message that is no echo it sent: %r",
                        shorten(str(content), 80))
            return
        if echo != self.awaited:
            return  # answered already (a second view of the page), or an older echo
        self.awaited = None
        if not isinstance(self.button, w.Button):
            self.button()
        elif not self.button.disabled:
            self.button.click()
