"""Every page of the app, named once: its notebook, kind, title, and where it is served.

The landing page's cards, the header bar's titles, the static site's build and links, and
the server's lighter page configuration all read :data:`PAGES`. The module is plain data
(no widgets), so the server, the site and the pages import it alike.

>>> page("halma.ipynb").kind, page("halma.ipynb").site_file, page("halma.ipynb").charts
('game', 'halma.html', False)
>>> [p.notebook for p in PAGES if p.kind == "lesson" and p.site_file]
['explore/mosaics.ipynb']
>>> page_path("explore/board_geometry.ipynb", "pl")
'explore/pl/board_geometry.ipynb'
"""

from __future__ import annotations

from dataclasses import dataclass

from mathgames.core.i18n import get_language, translator

__all__ = ["PAGES", "PAGES_WITHOUT_CHARTS", "SITE_PAGES", "Page", "page", "page_path",
           "page_title"]

_ = translator("app")


@dataclass(frozen=True)
class Page:
    """One page of the app.

    ``kind`` is ``"landing"``, ``"game"``, ``"class"``, ``"lesson"`` or ``"demo"``;
    ``site_file`` is its file on the static site (``None``: the site links to a server for
    it); ``charts`` says whether it draws charts (a page without them loads no chart code).
    """

    notebook: str
    kind: str
    site_file: str | None = None
    charts: bool = False

    @property
    def title(self) -> str:
        """The page's title in the current language."""
        return _titles()[self.notebook]

    @property
    def description(self) -> str:
        """A one-line description in the current language (``""`` for the landing page)."""
        return _descriptions().get(self.notebook, "")


#: Every page of the app, in the order of the landing page's cards.
PAGES: tuple[Page, ...] = (
    Page("index.ipynb", "landing", site_file="index.html"),
    Page("triomino.ipynb", "game", site_file="triomino.html"),
    Page("mosaic.ipynb", "game", site_file="mosaic.html"),
    Page("matematiko.ipynb", "game", site_file="matematiko.html"),
    Page("halma.ipynb", "game", site_file="halma.html"),
    Page("chinese_checkers.ipynb", "game", site_file="chinese_checkers.html"),
    Page("teacher.ipynb", "class", charts=True),
    Page("join.ipynb", "class"),
    Page("table.ipynb", "class"),
    Page("explore/triomino_combinatorics.ipynb", "lesson", charts=True),
    Page("explore/matematiko_probabilities.ipynb", "lesson", charts=True),
    Page("explore/board_geometry.ipynb", "lesson", charts=True),
    # the one lesson whose libraries all exist for Pyodide (the others chart with bqplot,
    # which needs numpy: PyPI has no Pyodide build of numpy)
    Page("explore/mosaics.ipynb", "lesson", site_file="lesson-mosaics.html", charts=True),
    Page("board_demo.ipynb", "demo"),
)

_BY_NOTEBOOK = {p.notebook: p for p in PAGES}

#: The static site's pages and their files.
SITE_PAGES: dict[str, str] = {p.notebook: p.site_file for p in PAGES if p.site_file}

#: App pages without charts: their browsers need not load the chart libraries' code.
PAGES_WITHOUT_CHARTS = frozenset(p.notebook for p in PAGES if not p.charts)


def page(notebook: str) -> Page:
    """The page of a notebook's English path (a ``KeyError`` names an unknown one)."""
    return _BY_NOTEBOOK[notebook]


def page_path(notebook: str, language: str | None = None) -> str:
    """Where a page lives for a language: lessons have one copy per language.

    >>> page_path("explore/board_geometry.ipynb", "en"), page_path("halma.ipynb", "pl")
    ('explore/board_geometry.ipynb', 'halma.ipynb')
    """
    language = language or get_language()
    if notebook.startswith("explore/") and notebook.count("/") == 1 and language != "en":
        return f"explore/{language}/{notebook.split('/', 1)[1]}"
    return notebook


def page_title(notebook: str) -> str:
    """The title of a page in the current language (a lesson's teacher page is named after it).

    >>> page_title("halma.ipynb")
    'Halma'
    >>> page_title("explore/board_geometry_teacher.ipynb")
    "The geometry of the boards: teacher's notes"
    >>> page_title("nowhere.ipynb")
    ''
    """
    if notebook in _BY_NOTEBOOK:
        return _BY_NOTEBOOK[notebook].title
    lesson = _BY_NOTEBOOK.get(notebook.replace("_teacher.ipynb", ".ipynb"))
    if notebook.endswith("_teacher.ipynb") and lesson is not None:
        return _("{lesson}: teacher's notes").format(lesson=lesson.title)
    return ""


def _titles() -> dict[str, str]:
    return {
        "index.ipynb": _("Maths games"),
        "triomino.ipynb": _("Triomino"),
        "mosaic.ipynb": _("Mosaic"),
        "matematiko.ipynb": _("Matematiko"),
        "halma.ipynb": _("Halma"),
        "chinese_checkers.ipynb": _("Chinese checkers"),
        "explore/triomino_combinatorics.ipynb": _("How many tiles, and why?"),
        "explore/matematiko_probabilities.ipynb": _("Matematiko odds"),
        "explore/board_geometry.ipynb": _("The geometry of the boards"),
        "explore/mosaics.ipynb": _("Mosaics and polyiamonds"),
        "board_demo.ipynb": _("Board widget demo"),
        "teacher.ipynb": _("Teacher"),
        "join.ipynb": _("Join a class"),
        "table.ipynb": _("A table for friends"),
    }


def _descriptions() -> dict[str, str]:
    return {
        "triomino.ipynb": _(
            "Triangular dominoes: match the corners, build bridges and hexagons."),
        "mosaic.ipynb": _(
            "Turn the tiles face down: build a snake, a bird, a cat, a samurai."),
        "matematiko.ipynb": _(
            "Place 25 called numbers on a 5x5 grid and score poker-like lines."),
        "halma.ipynb": _("Step and jump your pieces across a 16x16 board into the far camp."),
        "chinese_checkers.ipynb": _("The same race on a six-pointed star of 121 holes."),
        "explore/triomino_combinatorics.ipynb": _(
            "Count the tiles, the missing mirror tiles and the chance of a triple."),
        "explore/matematiko_probabilities.ipynb": _(
            "Exact probabilities of every combination and what strategy is worth."),
        "explore/board_geometry.ipynb": _(
            "Hexagonal and triangular numbers, distances, and the shortest crossing."),
        "explore/mosaics.ipynb": _(
            "Count the figures of n triangles, mirror images, and a perimeter rule."),
        "board_demo.ipynb": _("Click the cells: the widget that every game draws on."),
        "teacher.ipynb": _("Open a class: the students join from their own devices, "
                           "you call the numbers and see the results."),
        "join.ipynb": _("Type the class code and your first name, then play along."),
        "table.ipynb": _("Halma, Chinese checkers or Triomino, each player on their "
                         "own device."),
    }
