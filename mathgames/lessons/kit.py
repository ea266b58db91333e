"""The building blocks of a lesson page: numbers in the reader's language, predict-first
questions, hidden answers, simulations with a trials control, links to the games.

Every lesson notebook in ``notebooks/explore`` uses these pieces so that the lessons look and
behave alike (a new lesson gets the same format by importing them):

- :func:`number`, :func:`decimal`, :func:`fraction_text` write numbers as the current language
  writes them (Babel's CLDR data: ``1 820``, ``0,9150``).
- :class:`Predict` asks the student to guess before a result is shown, records the guess and
  then shows the answer beside it; the notebook cells tagged ``answer-<key>`` (its
  ``reveals``) stay hidden in Voilà until then (:func:`hold_answers` draws the rule that hides
  them).
- :func:`reveal` hides an answer behind a button.
- :class:`Trials` runs a seeded simulation in chunks for a number of trials the student
  chooses, with a progress bar and a chart of the running frequencies.
- :func:`game_link` links a lesson to the game it is about.
- :func:`teacher_link` links a lesson to its teacher's page (``<lesson>_teacher.ipynb``: the
  route through the lesson, key questions, hints and answers).

Messages go through the gettext domain ``lessons``.

>>> from mathgames.core.i18n import set_language
>>> previous = set_language("pl")
>>> number(1820), number(20000), decimal(0.91504, 4), fraction_text(Fraction(7565, 8268))
('1820', '20\\xa0000', '0,9150', '7565/8268')
>>> _ = set_language(previous)
"""

from __future__ import annotations

import html
import json
import random
from collections.abc import Callable, Sequence
from fractions import Fraction
from numbers import Rational, Real
from pathlib import Path
from typing import Any

import ipywidgets as w

from mathgames.core.errors import shorten
from mathgames.core.i18n import get_language, translator
from mathgames.core.ui_widget import EnterSubmits
from mathgames.core.widget_looks import built_together
from mathgames.lessons.steps import HIDE, READY_CLASS, LessonSteps, show_everything, steps_bar

__all__ = [
    "InputError",
    "Predict",
    "Trials",
    "decimal",
    "exact",
    "fraction_text",
    "game_link",
    "hold_answers",
    "lesson_data",
    "lesson_link",
    "lesson_steps",
    "localise_axes",
    "math_text",
    "number",
    "parse_numbers",
    "percent",
    "reveal",
    "series",
    "show_everything",
    "teacher_link",
    "worksheet_html",
    "worksheet_link",
    "yes_no",
]

_ = translator("lessons")

#: The locales Babel formats each language with.
LOCALES = {"en": "en", "pl": "pl_PL", "cs": "cs_CZ", "ru": "ru_RU"}


def _locale() -> str:
    return LOCALES.get(get_language(), "en")


#: Languages whose typography leaves a four-digit number ungrouped ("1820", but "20 000"):
#: CLDR's minimum grouping digits of 2. Babel (2.19) does not apply that setting, so the
#: lessons apply it here, the same way in printed results and in the translated text.
MINIMUM_GROUPING_DIGITS = {"pl": 2, "ru": 2}


def _grouped(value: Real) -> bool:
    """Whether the integer part of ``value`` is long enough to be grouped in this language."""
    least = MINIMUM_GROUPING_DIGITS.get(get_language(), 1)
    return abs(int(value)) >= 10 ** (2 + least)


def number(value: Real) -> str:
    """An integer (or a number as it is) in the current language's format.

    Polish and Russian leave four-digit numbers ungrouped:

    >>> number(20000), number(1820)
    ('20,000', '1,820')
    >>> from mathgames.core.i18n import set_language
    >>> previous = set_language("ru")
    >>> number(1820), number(20000), number(356.25)
    ('1820', '20\xa0000', '356,25')
    >>> _ = set_language(previous)
    """
    from babel.numbers import format_decimal  # only the lessons' numbers: not on the game pages

    if _grouped(value):
        return format_decimal(value, locale=_locale())
    return format_decimal(value, format="0.###", locale=_locale())


def decimal(value: Real, digits: int = 4) -> str:
    """A decimal with exactly ``digits`` digits after the point, in the language's format.

    >>> decimal(Fraction(2822740, 32487), 2), decimal(0.5, 0)
    ('86.89', '0')
    """
    from babel.numbers import format_decimal

    pattern = ("#,##0" if _grouped(float(value)) else "0") + ("." + "0" * digits if digits
                                                              else "")
    return format_decimal(float(value), format=pattern, locale=_locale())


def fraction_text(value: Rational | Any) -> str:
    """An exact fraction as ``p/q`` (digits without grouping, as in every language).

    >>> fraction_text(Fraction(6, 4)), fraction_text(3)
    ('3/2', '3')
    """
    value = Fraction(int(value.numerator), int(value.denominator))
    return str(value.numerator) if value.denominator == 1 else (
        f"{value.numerator}/{value.denominator}")


def exact(value: Rational | Any, digits: int = 4) -> str:
    """A probability as its fraction and decimal; near 1, as ``1 − q`` so it never reads 1.

    >>> exact(Fraction(1007, 1035))
    '1007/1035 ≈ 0.9729'
    >>> exact(Fraction(97907, 97911))
    '1 − 4/97911 ≈ 0.99996'
    """
    value = Fraction(int(value.numerator), int(value.denominator))
    if value != 1 and round(float(value), digits) == 1:
        rest = 1 - value
        shown = digits
        while round(float(value), shown) == 1:
            shown += 1
        return f"1 − {fraction_text(rest)} ≈ {decimal(value, shown)}"
    return f"{fraction_text(value)} ≈ {decimal(value, digits)}"


def series(values: Any, empty: str | None = None) -> str:
    """A printed list of results as a reader writes it, not as Python does: numbers in the
    page's format, separated by commas; an empty list is "none" (or ``empty``).

    >>> series([28, 28, 1820]), series(("0-0-1", "0-1-1")), series([])
    ('28, 28, 1,820', '0-0-1, 0-1-1', 'none')
    >>> series({1: 3, 2: 1})
    '1: 3, 2: 1'
    """
    if isinstance(values, dict):
        items = [f"{key}: {series([value])}" for key, value in values.items()]
    else:
        items = [number(v) if isinstance(v, Real) and not isinstance(v, bool) else str(v)
                 for v in values]
    if not items:
        return _("none") if empty is None else empty
    return ", ".join(items)


def yes_no(value: bool) -> str:
    """A printed check result in the page's language.

    >>> yes_no(True), yes_no(1 == 2)
    ('yes', 'no')
    """
    return _("yes") if value else _("no")


def _percent(value: float) -> str:
    """A share as a percentage in the page's language ("50%", "50 %")."""
    from babel.numbers import format_percent

    return format_percent(value, locale=_locale())


def percent(value: Real, digits: int = 1) -> str:
    """A share as a percentage with ``digits`` decimals, in CLDR's form for the page's
    language (the same form as the charts' axes: Polish "91,5%", Czech and Russian with a
    no-break space, "91,5\xa0%").

    >>> percent(Fraction(7565, 8268))
    '91.5%'
    >>> from mathgames.core.i18n import set_language
    >>> previous = set_language("pl")
    >>> percent(Fraction(7565, 8268)), percent(0.2, 0)
    ('91,5%', '20%')
    >>> _ = set_language("ru"); percent(Fraction(7565, 8268))
    '91,5\xa0%'
    >>> _ = set_language(previous)
    """
    import re

    from babel import Locale
    from babel.numbers import format_percent

    pattern = Locale.parse(_locale()).percent_formats[None].pattern   # "#,##0\xa0%"
    if digits:
        pattern = re.sub(r"0(?=[^0#]*%)", "0." + "0" * digits, pattern, count=1)
    return format_percent(float(value), format=pattern, locale=_locale())


def math_text(expression: Any) -> str:
    """A formula (a sympy expression, or its text) written as mathematics, not as Python:
    powers as superscripts, products by juxtaposition or a centred dot, a true minus sign.

    >>> import sympy as sp
    >>> n = sp.Symbol("n")
    >>> math_text(n * (n + 1) / 2), math_text(3 * n**2 - 3 * n + 1)
    ('n(n + 1)/2', '3n² − 3n + 1')
    >>> math_text("2*3")
    '2 · 3'
    """
    import re

    superscripts = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
    text = str(expression)
    text = re.sub(r"\*\*(\d+)", lambda m: m.group(1).translate(superscripts), text)
    text = re.sub(r"(\d)\*(?=[A-Za-z(])", r"\1", text)       # 3*n -> 3n
    text = re.sub(r"([A-Za-z)⁰¹²³⁴⁵⁶⁷⁸⁹])\*(?=\()", r"\1", text)   # n*(n + 1) -> n(n + 1)
    text = text.replace("*", " · ")
    return re.sub(r"(?<=\s)-(?=\s)", "−", text).replace("(-", "(−")


def localise_axes(figure: Any, steps: int = 5) -> Any:
    """Write a chart's decimal and percentage tick labels in the page's language.

    bqplot formats ticks with d3, whose locale is English ("0.50"), and offers no way to
    change it. In another language each axis with a fixed-point (``.2f``) or percentage
    (``.0%``) format and a known range gets ``steps + 1`` ticks whose labels are drawn by a
    label mark with Babel's formats ("0,50", "50 %"); d3's own labels are made transparent.
    English charts keep d3's labels. Returns the figure.

    >>> import bqplot as bq
    >>> from mathgames.core.i18n import set_language
    >>> previous = set_language("pl")
    >>> y = bq.LinearScale(min=0, max=1)
    >>> chart = localise_axes(bq.Figure(marks=[], axes=[bq.Axis(scale=y, orientation="vertical",
    ...                                                         tick_format=".2f")]))
    >>> [str(text) for text in chart.marks[-1].text[:3]]
    ['0,00', '0,20', '0,40']
    >>> _ = set_language(previous)
    """
    import bqplot as bq

    if get_language() == "en":
        return figure
    labels = []
    for axis in figure.axes:
        spec = axis.tick_format or ""
        scale = axis.scale
        low, high = getattr(scale, "min", None), getattr(scale, "max", None)
        if low is None or high is None or not (spec.endswith("f") or spec.endswith("%")):
            continue
        ticks = [low + (high - low) * k / steps for k in range(steps + 1)]
        if spec.endswith("%"):
            text = [_percent(tick) for tick in ticks]
        else:
            digits = int(spec.strip(".f") or 0)
            text = [decimal(tick, digits) for tick in ticks]
        axis.tick_values = ticks
        axis.tick_style = {**(axis.tick_style or {}), "fill-opacity": "0"}
        size = float(str((axis.tick_style or {}).get("font-size", "16px")).rstrip("px"))
        across = bq.LinearScale(min=0, max=1)
        if axis.orientation == "vertical":
            label = bq.Label(x=[0] * len(ticks), y=ticks, text=text, x_offset=-8, y_offset=5,
                             align="end", scales={"x": across, "y": scale})
        else:
            label = bq.Label(x=ticks, y=[0] * len(ticks), text=text, y_offset=22,
                             align="middle", scales={"x": scale, "y": across})
        label.default_size = size
        label.colors = ["#555555"]
        label.font_weight = "normal"
        label.apply_clip = False   # drawn beside the plot area, where the axis is
        labels.append(label)
    if labels:
        figure.marks = [*figure.marks, *labels]
    return figure


class InputError(ValueError):
    """A student's input that is not what the box asks for (its message is translated)."""


def parse_numbers(text: str, lowest: int, highest: int, most: int | None = None) -> list[int]:
    """Whole numbers separated by spaces or commas, each from ``lowest`` to ``highest``.

    Raises :class:`InputError` with a translated message that names the bad part.

    >>> parse_numbers("7, 7 13", 1, 13)
    [7, 7, 13]
    >>> try:
    ...     parse_numbers("7 x 99", 1, 13)
    ... except InputError as error:
    ...     print(error)
    “x” is not a whole number: type numbers from 1 to 13, separated by spaces.
    """
    found = []
    for part in text.replace(",", " ").replace(";", " ").split():
        try:
            value = int(part)
        except ValueError:
            raise InputError(
                _("“{part}” is not a whole number: type numbers from {low} to {high}, "
                  "separated by spaces.").format(part=shorten(part, 20), low=lowest, high=highest)
            ) from None
        if not lowest <= value <= highest:
            raise InputError(_("{value} is not allowed here: the numbers go from {low} to "
                               "{high}.").format(value=shorten(str(value)), low=lowest,
                                                 high=highest))
        found.append(value)
    if most is not None and len(found) > most:
        raise InputError(_.ngettext("Type at most {n} number.", "Type at most {n} numbers.",
                                    most).format(n=most))
    return found


def _box(content: str, css: str) -> w.HTML:
    box = w.HTML(f'<div style="font-size:18px;line-height:1.5">{content}</div>')
    box.add_class(css)
    return box


def reveal(answer_html: str, label: str | None = None) -> w.VBox:
    """An answer hidden behind a button until the student asks for it.

    >>> box = reveal("<b>56</b>")
    >>> box.children[1].layout.display
    'none'
    >>> box.children[0].click(); box.children[1].layout.display
    ''
    """
    button = w.Button(description=label or _("Show the answer"), icon="eye",
                      layout=w.Layout(width="auto"))
    button.add_class("mg-lesson-reveal")
    answer = _box(answer_html, "mg-lesson-revealed")
    answer.layout.display = "none"

    def toggle(_button: w.Button) -> None:
        hidden = answer.layout.display == "none"
        answer.layout.display = "" if hidden else "none"
        button.description = _("Hide the answer") if hidden else (label or _("Show the answer"))

    button.on_click(toggle)
    return w.VBox([button, answer])


#: The tag prefix of the notebook cells that answer a prediction: ``answer-<key>``.
ANSWER_TAG = "answer-"

#: The lesson steps of the page (one lesson per kernel), which the questions report to.
_STEPS: LessonSteps | None = None


def hold_answers() -> Any:
    """The page rule that hides every cell tagged ``answer-<key>`` while the page loads.

    Voilà writes a cell's tags into its class (``celltag_answer-count``), so one style sheet,
    drawn once near the top of a lesson (before the first answer), hides every part that
    waits for a question until :func:`lesson_steps` has decided what the class has reached;
    without the steps, a :class:`Predict` with ``reveals="count"`` shows the cells tagged
    ``answer-count`` once the class has guessed or asked for the answer. In JupyterLab,
    where a student runs the cells one by one, nothing is hidden.

    >>> "celltag_answer-" in hold_answers().data
    True
    """
    from IPython.display import HTML

    return HTML(f'<style>body:not(.{READY_CLASS}) [class*="celltag_{ANSWER_TAG}"] '
                f"{{{HIDE}}}</style>")


def lesson_steps(lesson: str, keys: Sequence[str] | None = None) -> w.VBox:
    """The lesson unfolds in steps: draw this once, near the top (in the links cell).

    Each cell tagged ``answer-<key>`` waits until the :class:`Predict` with ``reveals=key``
    is answered; the browser remembers the answered questions across a reload, and the
    teacher's page's "Show everything" (:func:`show_everything`) opens the whole lesson.
    See :mod:`mathgames.lessons.steps`.

    >>> bar = lesson_steps("explore/demo.ipynb", keys=["count"])
    >>> question = Predict("How many?", 56, reveals="count")
    >>> question.show(); question.steps.done
    {'count': ''}
    >>> import mathgames.lessons.kit as kit; kit._STEPS = None   # no lesson on this page
    """
    global _STEPS
    _STEPS = LessonSteps(lesson, keys=keys)
    return steps_bar(_STEPS)


def _show_cells(key: str) -> str:
    """The style that shows the cells tagged ``answer-<key>`` (empty without a key), for a
    page without :func:`lesson_steps`."""
    if not key:
        return ""
    return (f"<style>.celltag_{ANSWER_TAG}{html.escape(key)} {{visibility: visible "
            "!important; height: auto !important; overflow: visible !important;}</style>")


class Predict(w.VBox):
    """Ask for a guess first; when the student commits it, show the answer beside it.

    ``answer`` is the value (compared with the guess, for numbers), ``answer_text`` how it is
    shown, and ``explain`` an optional HTML sentence shown with it. ``reveals`` names the
    cells (tagged ``answer-<reveals>``) that show the answer at length: they stay hidden until
    the guess is checked, or until the class presses "Show the answer" without guessing.

    >>> question = Predict("How many tiles?", 56, explain="C(8, 3) = 56")
    >>> question.guess_box.value = "50"
    >>> question.check()
    >>> question.guesses
    ['50']
    >>> "56" in question.result.value and "50" in question.result.value
    True
    >>> question.guess_box.value = "lots"
    >>> question.check(); "number" in question.result.value
    True
    >>> later = Predict("How many tiles?", 56, reveals="count")
    >>> "celltag_answer-count" in later.result.value
    False
    >>> later.show(); "celltag_answer-count" in later.result.value, later.shown
    (True, True)
    """

    def __init__(self, question: str, answer: Real | str, answer_text: str | None = None,
                 explain: str = "", choices: Sequence[str] = (), reveals: str = "") -> None:
        self.answer = answer
        self.reveals = reveals
        self.shown = False
        self.answer_text = answer_text if answer_text is not None else (
            answer if isinstance(answer, str) else number(answer))
        self.explain = explain
        self.guesses: list[str] = []
        # A page holds several questions, and each widget model costs the page's kernel and
        # browser time: the parts that look alike share one layout and one style.
        plain, wide = w.Layout(), w.Layout(width="auto")
        prompt = w.HTML(f'<p style="font-size:18px"><b>{html.escape(_("Predict first"))}:</b> '
                        f"{html.escape(question)}</p>", layout=plain)
        if choices:
            self.guess_box: w.Widget = w.Dropdown(options=["", *choices], value="",
                                                  tooltip=_("your guess"), layout=wide)
        else:
            self.guess_box = w.Text(placeholder=_("your guess"), layout=w.Layout(width="200px"))
        self.guess_box.add_class("mg-lesson-guess")
        self.button = w.Button(description=_("Check my guess"), layout=wide)
        self.button.add_class("mg-lesson-check")
        self.button.on_click(lambda _button: self.check())
        self.show_button = w.Button(description=_("Show the answer"), icon="eye", layout=wide,
                                    style=self.button.style)
        self.show_button.add_class("mg-lesson-show")
        self.show_button.on_click(lambda _button: self.show())
        self.result = w.HTML(layout=plain, style=prompt.style)
        self.result.add_class("mg-lesson-prediction")
        parts: list[w.Widget] = [prompt, w.HBox([self.guess_box, self.button, self.show_button],
                                                layout=plain), self.result]
        if isinstance(self.guess_box, w.Text):  # Enter checks the guess, as the button does
            self.enter = EnterSubmits(self.button, self.guess_box)
            parts.append(self.enter)
        super().__init__(parts, layout=plain)
        self.add_class("mg-lesson-predict")
        if reveals:
            self.add_class(f"mg-lesson-predict-{reveals}")
        self.steps = _STEPS
        if self.steps is not None:
            self.steps.register(self)

    def check(self) -> None:
        """Record the guess in the box and show it beside the answer."""
        guess = str(self.guess_box.value).strip()
        if not guess:
            self.result.value = _p(_("Type your guess first."), error=True)
            return
        if isinstance(self.answer, Real) and not isinstance(self.answer, bool):
            try:
                float(guess.replace(",", ".").replace("\xa0", "").replace(" ", ""))
            except ValueError:
                self.result.value = _p(_("“{guess}” is not a number: type a number.").format(
                    guess=shorten(guess, 20)), error=True)
                return
        self.guesses.append(guess)
        text = _("Your guess: {guess}. The answer: {answer}.").format(
            guess=html.escape(shorten(guess)), answer=html.escape(str(self.answer_text)))
        self._answer(text, guess)

    def show(self) -> None:
        """Show the answer without a guess (the class decided not to guess)."""
        self._answer(_("The answer: {answer}.").format(
            answer=html.escape(str(self.answer_text))))

    def restore(self, guess: str) -> None:
        """Answer again what the class answered before the page was reloaded.

        >>> question = Predict("How many tiles?", 56)
        >>> question.restore("50"); "Your guess: 50" in question.result.value
        True
        """
        if guess:
            self.guess_box.value = guess if not isinstance(self.guess_box, w.Dropdown) or (
                guess in self.guess_box.options) else ""
            self.guesses.append(guess)
            self._answer(_("Your guess: {guess}. The answer: {answer}.").format(
                guess=html.escape(shorten(guess)), answer=html.escape(str(self.answer_text))),
                guess)
        else:
            self.show()

    def reset(self) -> None:
        """Ask the question afresh (the lesson starts again)."""
        self.shown = False
        self.guesses = []
        self.remove_class("mg-lesson-answered")
        self.result.value = ""
        self.guess_box.value = ""

    def _answer(self, text: str, guess: str = "") -> None:
        self.shown = True
        self.add_class("mg-lesson-answered")
        self.result.value = (_p(text) + (f'<p style="font-size:17px">{self.explain}</p>'
                                         if self.explain else "") + (
            "" if self.steps is not None else _show_cells(self.reveals)))
        if self.steps is not None:
            self.steps.answered(self.reveals, guess)


def _p(text: str, error: bool = False) -> str:
    colour = "#b00020" if error else "#111"
    return f'<p style="font-size:18px;color:{colour}">{text}</p>'


class Trials(w.VBox):
    """A seeded simulation the student runs for a chosen number of trials.

    ``trial(rng)`` plays one trial and returns the outcome (a key of ``outcomes``);
    ``exact`` optionally maps outcomes to their exact probabilities, drawn as a second bar
    (or is a function returning that map, for a simulation whose settings can change).
    The trials run in chunks and a progress bar moves; the chart shows the frequencies so far.

    >>> t = Trials(lambda rng: rng.random() < 0.5, [True, False], ["heads", "tails"],
    ...            exact={True: 0.5, False: 0.5}, seed=1)
    >>> t.trials.value = 1000; t.run()
    >>> sum(t.counts.values()), abs(t.frequencies()[True] - 0.5) < 0.05
    (1000, True)
    """

    def __init__(self, trial: Callable[[random.Random], Any], outcomes: Sequence[Any],
                 labels: Sequence[str],
                 exact: dict[Any, float] | Callable[[], dict[Any, float]] | None = None,
                 title: str = "", seed: int = 2026, start: int = 100,
                 most: int = 20_000, chunk: int = 250) -> None:
        import bqplot as bq

        self.trial, self.outcomes, self.exact = trial, list(outcomes), exact
        self.seed, self.chunk = seed, chunk
        self.counts: dict[Any, int] = {o: 0 for o in self.outcomes}
        self.trials = w.BoundedIntText(value=start, min=1, max=most, step=100,
                                       description=_("trials"),
                                       layout=w.Layout(width="220px"))
        self.trials.add_class("mg-lesson-trials")
        self.button = w.Button(description=_("Run"), icon="play", layout=w.Layout(width="auto"))
        self.button.add_class("mg-lesson-run")
        self.progress = w.IntProgress(value=0, min=0, max=1, layout=w.Layout(width="260px"))
        self.status = w.HTML()
        self.status.add_class("mg-lesson-trials-status")
        x, y = bq.OrdinalScale(), bq.LinearScale(min=0, max=1)
        names = [_("simulation")]
        colours = ["#E69F00"]
        if exact is not None:
            names.append(_("exact value"))
            colours.append("#0072B2")
        self.bars = bq.Bars(x=list(labels), y=self._heights(), type="grouped", colors=colours,
                            labels=names, display_legend=True, scales={"x": x, "y": y})
        style = {"font-size": "16px"}
        self.figure = bq.Figure(
            marks=[self.bars], title=title, legend_location="top-right",
            axes=[bq.Axis(scale=x, tick_style=style),
                  bq.Axis(scale=y, orientation="vertical", tick_format=".0%", tick_style=style,
                          label=_("frequency"), label_offset="55px")],
            layout=w.Layout(width="100%", max_width="960px", height="380px"),
            fig_margin={"top": 60, "bottom": 60, "left": 90, "right": 30})
        localise_axes(self.figure)
        self.button.on_click(lambda _button: self.run())
        super().__init__([w.HBox([self.trials, self.button, self.progress]), self.status,
                          self.figure])
        self.add_class("mg-lesson-simulation")

    def _heights(self) -> list[list[float]]:
        shares = self.frequencies()
        heights = [[shares[o] for o in self.outcomes]]
        if self.exact is not None:
            exact = self.exact() if callable(self.exact) else self.exact
            heights.append([float(exact[o]) for o in self.outcomes])
        return heights

    def reset(self) -> None:
        """Forget the trials run (after a setting of the simulation changed)."""
        self.counts = {o: 0 for o in self.outcomes}
        self.progress.value = 0
        self.status.value = ""
        self.bars.y = self._heights()

    def frequencies(self) -> dict[Any, float]:
        """The share of each outcome among the trials run so far."""
        total = sum(self.counts.values())
        return {o: (c / total if total else 0.0) for o, c in self.counts.items()}

    def run(self) -> None:
        """Run the chosen number of trials from the seed, showing progress as it goes."""
        rng = random.Random(self.seed)
        wanted = int(self.trials.value)
        self.counts = {o: 0 for o in self.outcomes}
        self.progress.max, self.progress.value = wanted, 0
        done = 0
        while done < wanted:
            for _step in range(min(self.chunk, wanted - done)):
                self.counts[self.trial(rng)] += 1
            done = min(wanted, done + self.chunk)
            self.progress.value = done
            self.bars.y = self._heights()
        self.status.value = _p(_.ngettext("{n} trial run.", "{n} trials run.", done).format(
            n=number(done)))


def game_link(notebook: str, text: str, lesson: str) -> w.HTML:
    """A large link from a lesson to the game it is about (in the page's language).

    The game opens in a new tab, so the lesson stays where the student left it.

    >>> "triomino.ipynb?lang=" in game_link("triomino.ipynb", "Play",
    ...                                      "explore/triomino_combinatorics.ipynb").value
    True
    """
    from mathgames.page_list import page_path
    from mathgames.pages.header import link

    address = link(notebook, here=page_path(lesson))
    with built_together():  # a link that never changes its look
        box = w.HTML(f'<p style="font-size:20px">▶ <a href="{html.escape(address)}" '
                     f'target="_blank" rel="noopener" class="mg-lesson-game">'
                     f'{html.escape(text)}</a></p>')
        box.add_class("mg-lesson-game-link")
    return box


def lesson_link(lesson: str, game: str) -> w.HTML:
    """The way back: a link from a game's page to the lesson about that game.

    >>> "explore/board_geometry.ipynb?lang=" in lesson_link("explore/board_geometry.ipynb",
    ...                                                      "halma.ipynb").value
    True
    """
    return game_link(lesson, _("The mathematics behind this game: open the lesson"), game)


def teacher_link(lesson: str) -> w.HTML:
    """A small link from a lesson to its teacher's page, ``<lesson>_teacher.ipynb``.

    >>> "board_geometry_teacher.ipynb" in teacher_link("explore/board_geometry.ipynb").value
    True
    """
    from mathgames.page_list import page_path
    from mathgames.pages.header import link

    address = link(lesson.replace(".ipynb", "_teacher.ipynb"), here=page_path(lesson))
    text = _("For the teacher: a 45-minute route through this lesson, hints and answers")
    box = w.HTML(f'<p style="font-size:15px"><a href="{html.escape(address)}" '
                 f'class="mg-lesson-teacher">{html.escape(text)}</a></p>')
    box.add_class("mg-lesson-teacher-link")
    return box


def lesson_data(lesson: str, where: Path | None = None) -> dict:
    """The precomputed results of a lesson, ``data/<lesson>.json`` beside the English lesson.

    The language copies run one folder deeper (``explore/pl/``), so the parent folder is
    searched too. The files are written by ``notebooks/explore/precompute.py``.
    """
    here = Path.cwd() if where is None else where
    for folder in (here, here.parent):
        path = folder / "data" / f"{lesson}.json"
        if path.exists():
            return json.loads(path.read_text(encoding="utf-8"))
    raise FileNotFoundError(f"data/{lesson}.json not found from {here}: run precompute.py")


#: The cells of a lesson that make its worksheet, in this order.
WORKSHEET_CELLS = ("warm-up", "questions", "exit")

_WORKSHEET_STYLE = """
@page { size: A4; margin: 16mm 18mm; }
body { font-family: "DejaVu Sans", Arial, sans-serif; font-size: 12pt; color: #000;
       max-width: 180mm; margin: 0 auto; }
h1 { font-size: 17pt; margin: 0 0 4mm; }
h2 { font-size: 14pt; margin: 7mm 0 2mm; }
.mg-name { border-bottom: 1px solid #000; padding-bottom: 2mm; margin-bottom: 4mm; }
.mg-task, li { break-inside: avoid; page-break-inside: avoid; }
.mg-space { height: 32mm; border: 1px solid #999; border-radius: 2mm; margin: 2mm 0 5mm; }
@media screen { body { margin: 2em auto; } }
"""


def _worksheet_blocks(cell_id: str, source: str) -> list[str]:
    """The markdown blocks of a worksheet cell: answers removed, each task with its space."""
    import re

    text = re.sub(r"<details>.*?</details>", "", source, flags=re.S)
    blocks = [block.strip() for block in re.split(r"\n\s*\n", text) if block.strip()]
    if cell_id == "questions":  # the heading and the numbered questions, not the directions
        blocks = [b for b in blocks if b.startswith("#") or re.match(r"\d+\.\s", b)]
    return blocks


def worksheet_html(notebook: Path) -> str:
    """A printable page of a lesson's tasks with space to answer, in the lesson's language.

    It is made from the lesson's own text (its warm-up, questions for students and exit
    question, as written in the notebook of that language), without the hidden answers; the
    print style fits it to A4 pages, each task with a box to write in.

    >>> page = worksheet_html(Path("notebooks/explore/mosaics.ipynb"))
    >>> "Exit question" in page and "<details>" not in page and "mg-space" in page
    True
    """
    import mistune

    cells = {cell.get("id"): "".join(cell["source"]) if isinstance(cell["source"], list)
             else cell["source"]
             for cell in json.loads(notebook.read_text(encoding="utf-8"))["cells"]
             if cell["cell_type"] == "markdown"}
    title = next((line.lstrip("# ").strip() for source in cells.values()
                  for line in source.splitlines() if line.startswith("# ")), notebook.stem)
    parts = [f"<h1>{html.escape(title)}</h1>",
             f'<p class="mg-name">{html.escape(_("Name"))}: </p>']
    for cell_id in WORKSHEET_CELLS:
        for block in _worksheet_blocks(cell_id, cells.get(cell_id, "")):
            if block.startswith("#"):
                parts.append(str(mistune.html(block)))
            else:
                parts.append(f'<div class="mg-task">{mistune.html(block)}'
                             '<div class="mg-space"></div></div>')
    language = get_language()
    return (f'<!DOCTYPE html><html lang="{language}"><head><meta charset="utf-8">'
            f"<title>{html.escape(title)}: {html.escape(_('worksheet'))}</title>"
            f"<style>{_WORKSHEET_STYLE}</style></head><body>{''.join(parts)}</body></html>")


#: A printer, drawn inline (an emoji is an empty box where no emoji font is installed).
PRINTER_ICON = ('<svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" '
                'style="vertical-align:-3px" fill="none" stroke="currentColor" '
                'stroke-width="2" stroke-linejoin="round"><path d="M6 9V3h12v6"/>'
                '<rect x="3" y="9" width="18" height="8" rx="2"/><path d="M6 14h12v7H6z"/>'
                "</svg>")


def worksheet_link(lesson: str, where: Path | None = None) -> w.HTML:
    """A link that downloads the lesson's printable worksheet (open it, then print it).

    ``lesson`` is the notebook's name (``"mosaics"``); the notebook of the page's language is
    read from the folder the lesson runs in.
    """
    import base64

    here = Path.cwd() if where is None else where
    page = worksheet_html(here / f"{lesson}.ipynb")
    address = "data:text/html;charset=utf-8;base64," + base64.b64encode(
        page.encode("utf-8")).decode("ascii")
    name = f"{lesson}-{get_language()}-worksheet.html"
    text = _("A worksheet to print: the questions, with space to answer")
    box = w.HTML(f'<p style="font-size:15px">{PRINTER_ICON} <a href="{address}" download="{name}" '
                 f'class="mg-lesson-worksheet">{html.escape(text)}</a></p>')
    box.add_class("mg-lesson-worksheet-link")
    return box
