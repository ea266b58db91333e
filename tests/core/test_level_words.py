"""The set-up panels' words on bot levels, in every language: a student reads what each
level plays like and how strong it is (rounded from the measured figures, no timings);
a teacher opens "How strong?" for the figures themselves."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from html import unescape
from html.parser import HTMLParser
from typing import Any

import pytest

from mathgames.core.i18n import LANGUAGES, format_number, set_language, translator
from mathgames.core.levels import Level, games_won

#: A timing in any of the four languages ("0.2 ms", "20,5 мс").
TIMING = re.compile(r"\d\s*(ms|мс)(?!\w)")


def _triomino() -> tuple[Any, Mapping[str, Level]]:
    from mathgames.triomino.bots import LEVELS
    from mathgames.triomino.widget import TriominoApp

    return TriominoApp(seed=3), LEVELS


def _matematiko() -> tuple[Any, Mapping[str, Level]]:
    from mathgames.matematiko.bots import LEVELS
    from mathgames.matematiko.widget import MatematikoApp

    return MatematikoApp(code="BQT234"), LEVELS


def _board(board: str) -> Callable[[], tuple[Any, Mapping[str, Level]]]:
    def make() -> tuple[Any, Mapping[str, Level]]:
        from mathgames.halma.bots import levels_on
        from mathgames.halma.widget import HalmaApp

        return HalmaApp(board=board), levels_on(board)

    return make


PANELS = {"triomino": _triomino, "matematiko": _matematiko, "halma": _board("halma"),
          "chinese checkers": _board("star")}


class Panel(HTMLParser):
    """The students' list, the disclosure's summary and the teachers' list, as text."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.words: list[str] = []
        self.figures: list[str] = []
        self.summary = ""
        self.part = ""  # "words", "figures" or ""
        self.where: list[str] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = (dict(attrs).get("class") or "").split()
        if tag == "ul" and "mg-level-words" in classes:
            self.part = "words"
        elif tag == "details" and "mg-level-figures" in classes:
            self.part = "figures"
        elif tag == "li":
            (self.words if self.part == "words" else self.figures).append("")
        self.where.append(tag)

    def handle_endtag(self, tag: str) -> None:
        self.where.pop()
        if tag in ("ul", "details") and self.part == "words":
            self.part = ""

    def handle_data(self, data: str) -> None:
        if self.where and self.where[-1] == "summary":
            self.summary += data
        elif "li" in self.where:
            (self.words if self.part == "words" else self.figures)[-1] += data


def strength(level: Level) -> str:
    """The strength phrase a level's figures round to, in the current language."""
    if "rate" in level.figures:
        return games_won(level.figures["rate"])
    return format_number(round(level.figures["mean"], -1))  # Matematiko: points a game


def panel_in(game: str, lang: str) -> tuple[Panel, Mapping[str, Level], list[str], list[str],
                                            list[str]]:
    """The panel of ``game`` in ``lang``, its levels, and each level's words in ``lang``:
    the students' description, the teachers' figures, the strength phrase."""
    previous = set_language(lang)
    try:
        app, levels = PANELS[game]()
        panel = Panel(app.level_help.value)
        descriptions = [level.description for level in levels.values()]
        measured = [level.measured for level in levels.values()]
        phrases = [strength(level) for level in levels.values()]
    finally:
        set_language(previous)
    return panel, levels, descriptions, measured, phrases


@pytest.mark.parametrize("lang", list(LANGUAGES))
@pytest.mark.parametrize("game", list(PANELS))
def test_students_read_what_each_level_plays_like_without_timings(game: str, lang: str):
    panel, levels, descriptions, _measured, phrases = panel_in(game, lang)
    assert len(panel.words) == len(levels)
    for text, description, phrase in zip(panel.words, descriptions, phrases, strict=True):
        assert unescape(description) in text
        assert not TIMING.search(text), f"{game} {lang}: a timing for students: {text!r}"
        assert "%" not in text  # the rates are said as games in 10
        # how strong it is, rounded from the measured figures by code ...
        assert phrase in text
        # ... and what it plays like: a sentence of its own besides
        assert len(text.replace(phrase, "").split()) >= 8, text
    assert len(set(descriptions)) == len(descriptions)
    if lang != "en":
        english = panel_in(game, "en")[2]
        assert all(ours != theirs for ours, theirs in zip(descriptions, english, strict=True))


@pytest.mark.parametrize("lang", list(LANGUAGES))
@pytest.mark.parametrize("game", list(PANELS))
def test_how_strong_holds_the_measured_figures_for_teachers(game: str, lang: str):
    panel, levels, _descriptions, measured, _phrases = panel_in(game, lang)
    previous = set_language(lang)
    try:
        assert panel.summary == translator("core")("How strong?")
    finally:
        set_language(previous)
    if lang != "en":
        assert panel.summary != "How strong?"
    assert len(panel.figures) == len(levels)
    for text, words, level in zip(panel.figures, measured, levels.values(), strict=True):
        assert words in text
        assert TIMING.search(text), f"{game} {lang}: no timing for teachers: {text!r}"
        figure = level.figures.get("rate", level.figures.get("mean"))
        previous = set_language(lang)
        try:
            assert format_number(figure) in text
        finally:
            set_language(previous)


def test_the_rates_round_to_games_in_ten_from_the_recorded_figures():
    from mathgames.halma.bots import levels_on
    from mathgames.triomino.bots import LEVELS as TRIOMINO

    # the README's tables: 89.8 % (Halma) and 94.2 % (Chinese checkers) for medium
    # against easy, 100 % for hard; Triomino's 41.6 %, 67.2 % and 74.1 %
    for board in ("halma", "star"):
        words = [level.description for level in levels_on(board).values()]
        assert "Wins every game against a player who moves at random." in words[0]
        assert "Wins about 9 games in 10 against the easy bot." in words[1]
        assert "Wins every game against the medium bot." in words[2]
    assert [games_won(level.figures["rate"]) for level in TRIOMINO.values()] == [
        "about 4 games in 10", "about 7 games in 10", "about 7 games in 10"]
    previous = set_language("ru")
    try:
        assert games_won(41.6) == "примерно 4 партии из 10"
        assert games_won(67.2) == "примерно 7 партий из 10"
        assert games_won(14.0) == "примерно 1 партию из 10"
    finally:
        set_language(previous)
