"""Where a page's links lead on the static site, and what each landing page offers.

On the static site (Python in the browser, ``MATHGAMES_STATIC_SITE=1``) the games' pages are
files beside the landing page (``halma.html``); every other page (the lessons, the class's
pages) needs a server: the class server when the site was built with its address
(``MATHGAMES_SERVER_URL``), otherwise Binder. A class server whose settings name the static
site (``MATHGAMES_SITE_URL``) offers it on its landing page.

>>> site = StaticSite(server="https://class.example.org/")
>>> site.link("halma.ipynb", "pl")
'halma.html?lang=pl'
>>> site.link("explore/mosaics.ipynb", "ru")
'lesson-mosaics.html?lang=ru'
>>> site.link("explore/board_geometry.ipynb", "cs")
'https://class.example.org/voila/render/explore/cs/board_geometry.ipynb?lang=cs'
>>> StaticSite(server="").link("join.ipynb", "en").startswith(BINDER_URL)
True
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from urllib.parse import quote

from mathgames.core.i18n import translator
from mathgames.core.svg import esc
from mathgames.page_list import SITE_PAGES, page_path

__all__ = ["BINDER_URL", "SITE_PAGES", "StaticSite", "joinable", "static_site",
           "static_site_block"]

_ = translator("app")

#: The app on Binder (the README's badge): every page, in a container of its own.
BINDER_URL = "https://mybinder.org/v2/gh/mathgames/mathgames/main"

@dataclass(frozen=True)
class StaticSite:
    """The static site's links; ``server`` is the class server's address, or ``""``."""

    server: str

    def link(self, notebook: str, language: str, here: str = "") -> str:
        """A page's address from a page of the static site (all of them side by side)."""
        if notebook in SITE_PAGES:  # one file for every language: the page picks its copy
            return f"{SITE_PAGES[notebook]}?lang={language}"
        return server_link(notebook, language, self.server)


def server_link(notebook: str, language: str, server: str) -> str:
    """A page of the app on the class server at ``server``, or on Binder when it is ``""``.

    >>> server_link("join.ipynb", "ru", "http://10.0.0.2:8866")
    'http://10.0.0.2:8866/voila/render/join.ipynb?lang=ru'
    >>> server_link("index.ipynb", "en", "")
    'https://mybinder.org/v2/gh/mathgames/mathgames/main?urlpath=voila/render/notebooks/index.ipynb%3Flang%3Den'
    """
    path = f"{page_path(notebook, language)}?lang={language}"
    if server:
        return f"{server.rstrip('/')}/voila/render/{path}"
    return f"{BINDER_URL}?urlpath=voila/render/notebooks/{quote(path, safe='/')}"


def static_site() -> StaticSite | None:
    """The static site's links when this Python runs on it, else ``None``."""
    if os.environ.get("MATHGAMES_STATIC_SITE") != "1":
        return None
    return StaticSite(server=os.environ.get("MATHGAMES_SERVER_URL", ""))


def joinable() -> bool:
    """Whether a page offers "Join a class": always on a server; on the static site only
    when it was built with a class server's address."""
    site = static_site()
    return site is None or bool(site.server)


def static_site_block() -> str:
    """The class server's landing page: a line with the static site's address, when the
    server's settings name one (``MATHGAMES_SITE_URL``), else ``""``.

    >>> kept = os.environ.pop("MATHGAMES_SITE_URL", None)
    >>> static_site_block()
    ''
    >>> os.environ["MATHGAMES_SITE_URL"] = "https://games.example.org/"
    >>> 'href="https://games.example.org/"' in static_site_block()
    True
    >>> _ = os.environ.pop("MATHGAMES_SITE_URL")
    >>> if kept is not None: os.environ["MATHGAMES_SITE_URL"] = kept
    """
    url = os.environ.get("MATHGAMES_SITE_URL", "")
    if not url or static_site() is not None:
        return ""
    text = _("Play the games at home with no server: they run in the browser at")
    return (f'<p class="mg-static-site" style="font-size:16px">{esc(text)} '
            f'<a href="{esc(url)}">{esc(url)}</a></p>')
