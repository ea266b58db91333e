"""A lesson that unfolds with the class: each part waits until the question before it is answered.

Every cell of a lesson notebook after its first "predict first" question carries the tag
``answer-<key>`` of the question above it (and a cell that answers an earlier *driving*
question carries that question's tag too). Voilà writes a cell's tags into its class
(``celltag_answer-count``), so a style rule can hide the cells: :func:`~mathgames.lessons.kit.
hold_answers` hides all of them while the page loads, and :class:`LessonSteps` then hides
exactly the cells with a tag whose question is not answered yet. When the class answers a
question (or presses "Show the answer"), the next part appears, up to the next question.

The browser keeps the answered questions in its local storage, under a key of the lesson (the
same in every language), so a lesson reloaded in the middle comes back at the step it had
reached; "Start again" forgets them. The teacher's page has a "Show everything" switch
(:func:`show_everything`) that opens the whole lesson on that computer, for preparation.

>>> steps = LessonSteps("explore/demo.ipynb", keys=("count", "kinds"))
>>> steps.css.count("celltag_answer-")
2
>>> steps.answered("count", "50"); steps.css.count("celltag_answer-"), steps.storage_value
(1, '{"count": "50"}')
>>> steps.offer_stored('{"count": "50", "kinds": ""}', ""); sorted(steps.done)
['count', 'kinds']
>>> steps.css
''
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Protocol

import anywidget
import ipywidgets as w
import traitlets

from mathgames.core.i18n import translator

__all__ = ["HIDE", "LessonSteps", "answer_keys", "show_everything"]

log = logging.getLogger(__name__)
_ = translator("lessons")

#: The tag prefix of the cells that wait for a question: ``answer-<key>``.
ANSWER_TAG = "answer-"
#: How a waiting cell is hidden: out of sight and of the page's text, but laid out at full
#: width, so a chart drawn inside it never gets a zero (or negative) width.
HIDE = ("visibility: hidden !important; height: 0 !important; overflow: hidden !important; "
        "margin: 0 !important; padding: 0 !important; border: 0 !important;")
#: The class the steps put on the page's body once they decide what is hidden.
READY_CLASS = "mg-lesson-steps"
#: The longest kept copy accepted back from the browser.
MAX_STORED_CHARS = 4_000

_ESM = """
function read(key) { try { return key ? (localStorage.getItem(key) || "") : ""; }
                     catch (error) { return ""; } }
function write(key, value) {
  try { if (!key) return; if (value) localStorage.setItem(key, value);
        else localStorage.removeItem(key); } catch (error) { /* private mode: no memory */ }
}
function render({ model, el }) {
  const style = document.createElement("style");
  el.appendChild(style);
  const draw = () => {
    style.textContent = model.get("css");
    if (model.get("body")) document.body.classList.add("mg-lesson-steps");
    // charts in cells that just appeared take their size from the page again
    requestAnimationFrame(() => window.dispatchEvent(new Event("resize")));
  };
  model.on("change:css", draw);
  model.on("change:storage_value",
           () => write(model.get("storage_key"), model.get("storage_value")));
  model.on("change:open_value", () => write(model.get("open_key"), model.get("open_value")));
  draw();
  model.send({ type: "stored", steps: read(model.get("storage_key")),
               open: read(model.get("open_key")) });
}
export default { render };
"""


class Answerable(Protocol):
    """What the steps need of a question (:class:`~mathgames.lessons.kit.Predict`)."""

    reveals: str

    def restore(self, guess: str) -> None: ...

    def reset(self) -> None: ...


def answer_keys(notebook: Path) -> tuple[str, ...]:
    """The keys of the ``answer-<key>`` tags of a notebook, in their order of appearance.

    >>> answer_keys(Path("notebooks/explore/triomino_combinatorics.ipynb"))[:2]
    ('count', 'burnside')
    """
    try:
        cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    except (OSError, ValueError, KeyError):
        return ()
    keys: list[str] = []
    for cell in cells:
        for tag in cell.get("metadata", {}).get("tags", []):
            if tag.startswith(ANSWER_TAG) and tag[len(ANSWER_TAG):] not in keys:
                keys.append(tag[len(ANSWER_TAG):])
    return tuple(keys)


def _storage_keys(lesson: str) -> tuple[str, str]:
    name = lesson.removesuffix(".ipynb").removesuffix("_teacher")
    return f"mathgames-lesson-steps:{name}", f"mathgames-lesson-open:{name}"


class LessonSteps(anywidget.AnyWidget):
    """The lesson's memory of which questions the class has answered, and the page rule that
    hides the parts still waiting (see the module's description).

    ``lesson`` is the lesson's page (``"explore/mosaics.ipynb"``); ``keys`` the questions'
    keys (by default read from the notebook's ``answer-<key>`` tags in the folder it runs in).
    """

    _esm = _ESM
    css = traitlets.Unicode("").tag(sync=True)
    body = traitlets.Bool(True).tag(sync=True)
    storage_key = traitlets.Unicode("").tag(sync=True)
    storage_value = traitlets.Unicode("").tag(sync=True)
    open_key = traitlets.Unicode("").tag(sync=True)
    open_value = traitlets.Unicode("").tag(sync=True)

    def __init__(self, lesson: str, keys: Iterable[str] | None = None, **kwargs: Any) -> None:
        storage_key, open_key = _storage_keys(lesson)
        super().__init__(storage_key=storage_key, open_key=open_key, **kwargs)
        if keys is None:
            keys = answer_keys(Path.cwd() / Path(lesson).name)
        self.order = tuple(keys)
        self.done: dict[str, str] = {}
        self.questions: dict[str, Answerable] = {}
        self._kept: dict[str, str] = {}
        self._offered = False
        self.on_open: list[Any] = []
        self._draw()
        self.on_msg(self._message)

    @property
    def opened(self) -> bool:
        """Whether the teacher's "Show everything" is on for this lesson."""
        return self.open_value == "1"

    def _draw(self) -> None:
        waiting = [key for key in self.order if key not in self.done]
        self.css = "" if self.opened or not waiting else (
            ", ".join(f".celltag_{ANSWER_TAG}{key}" for key in waiting) + " {" + HIDE + "}")

    def register(self, question: Answerable) -> None:
        """Follow a question; one the browser remembers as answered is answered again."""
        if not question.reveals:
            return
        self.questions[question.reveals] = question
        if question.reveals not in self.order:
            self.order = (*self.order, question.reveals)
            self._draw()
        if question.reveals in self._kept:
            question.restore(self._kept.pop(question.reveals))

    def answered(self, key: str, guess: str = "") -> None:
        """The class answered question ``key`` (``guess`` empty: asked for the answer)."""
        if not key:
            return
        self.done[key] = guess
        self.storage_value = json.dumps(self.done, ensure_ascii=False)
        self._draw()

    def restart(self) -> None:
        """Forget every answer: the lesson starts again at its first question."""
        self.done = {}
        self._kept = {}
        self.storage_value = ""
        self.open_value = ""
        for question in self.questions.values():
            question.reset()
        self._draw()
        for callback in self.on_open:
            callback(False)

    def close_everything(self) -> None:
        """Switch the teacher's "Show everything" off on this computer."""
        self.open_value = ""
        self._draw()
        for callback in self.on_open:
            callback(False)

    def offer_stored(self, steps: str, opened: str) -> None:
        """Take what the browser kept: the answered questions and the "Show everything" switch."""
        if opened == "1":
            self.open_value = "1"
            for callback in self.on_open:
                callback(True)
        try:
            kept = json.loads(steps) if steps else {}
        except ValueError:
            kept = {}
        if not isinstance(kept, dict):
            kept = {}
        for key, guess in kept.items():
            if not (isinstance(key, str) and isinstance(guess, str)) or key in self.done:
                continue
            if key in self.questions:
                self.questions[key].restore(guess)
            else:   # its question is not drawn yet (the page is still running)
                self._kept[key] = guess
                self.done[key] = guess
        self._draw()

    def _message(self, _widget: Any, content: Any, buffers: Any) -> None:
        if self._offered or buffers or not isinstance(content, dict):
            return
        steps, opened = content.get("steps"), content.get("open")
        if content.get("type") != "stored" or not isinstance(steps, str) or not isinstance(
                opened, str) or len(steps) > MAX_STORED_CHARS or len(opened) > 8:
            log.warning("lesson steps ignored a message from the browser")
            return
        self._offered = True   # a second view of the widget offers the same copy again
        self.offer_stored(steps, opened)


def steps_bar(steps: LessonSteps) -> w.VBox:
    """The steps' widget with its two buttons: "Start again", and the note shown while the
    whole lesson is open ("Show everything" on the teacher's page)."""
    again = w.Button(description=_("Start the lesson again from the first question"),
                     icon="rotate-left", layout=w.Layout(width="auto"))
    again.add_class("mg-lesson-restart")
    again.on_click(lambda _button: steps.restart())
    note = w.HTML(f'<p style="font-size:15px"><b>{_("The whole lesson is open")}</b> '
                  f'({_("“Show everything” is on, on the teacher’s page")}).</p>')
    close = w.Button(description=_("Hide the answers again"), icon="eye-slash",
                     layout=w.Layout(width="auto"))
    close.add_class("mg-lesson-close-all")
    close.on_click(lambda _button: steps.close_everything())
    opened = w.HBox([note, close])
    opened.layout.display = "none"
    opened.add_class("mg-lesson-all-open")

    def show(is_open: bool) -> None:
        opened.layout.display = "" if is_open else "none"

    steps.on_open.append(show)
    box = w.VBox([steps, opened, again])
    box.add_class("mg-lesson-steps-bar")
    return box


def show_everything(lesson: str) -> w.VBox:
    """The teacher's switch that opens a whole lesson on this computer (for preparing it).

    ``lesson`` is the lesson's page; the switch is kept in the browser, so the lesson page
    opened afterwards (in any language) shows every part and every answer until the switch
    is turned off.

    >>> switch = show_everything("explore/mosaics.ipynb")
    >>> switch.children[0].value = True; switch.children[1].open_value
    '1'
    """
    memory = LessonSteps(lesson, keys=(), body=False)
    toggle = w.ToggleButton(value=False, icon="eye",
                            description=_("Show everything: the whole lesson with its answers"),
                            layout=w.Layout(width="auto"))
    toggle.add_class("mg-lesson-show-everything")

    def switched(change: dict[str, Any]) -> None:
        memory.open_value = "1" if change["new"] else ""

    toggle.observe(switched, "value")
    memory.on_open.append(lambda is_open: setattr(toggle, "value", is_open))
    box = w.VBox([toggle, memory])
    box.add_class("mg-lesson-show-everything-box")
    return box
