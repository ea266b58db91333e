"""The server's own small pages, in the visitor's language: "busy" and the class password.

The language comes from ``?lang=``, then the browser's ``Accept-Language``:

>>> language_for("lang=pl", "cs,en;q=0.8")
'pl'
>>> language_for("", "de-DE,ru;q=0.9,en;q=0.8")
'ru'
>>> language_for("", None)
'en'
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import tornado.escape

from mathgames.core.i18n import LANGUAGES, language_from_query, set_language, translator
from mathgames.core.svg import esc

__all__ = ["busy_html", "language_for", "login_html"]

_ = translator("app")


def language_for(query: str | None, accept_language: str | None) -> str:
    """The visitor's language: ``lang=`` in the query, else the browser's first supported one."""
    chosen = language_from_query(query)
    if chosen:
        return chosen
    for part in (accept_language or "").split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGUAGES:
            return code
    return "en"


@contextlib.contextmanager
def _in_language(code: str) -> Iterator[None]:
    previous = set_language(code)
    try:
        yield
    finally:
        set_language(previous)


_PAGE_STYLE = (
    "body{font-family:'DejaVu Sans','Segoe UI',Arial,sans-serif;color:#1b1b1b;"
    "background:#f7f9fb;margin:0}"
    "header{background:#17324d;color:#fff;padding:12px 18px;font-size:22px;font-weight:bold}"
    "main{max-width:34em;margin:2em auto;padding:0 1em;font-size:19px;line-height:1.45}"
    "a.mg-button,button{display:inline-block;background:#0072B2;color:#fff;border:0;"
    "border-radius:6px;padding:10px 18px;font-size:19px;text-decoration:none;cursor:pointer}"
    "input{font-size:19px;padding:8px;width:100%;box-sizing:border-box;margin:6px 0 14px}"
    ".mg-error{color:#a40000;font-weight:bold}"
)


def _page(language: str, title: str, body: str, refresh: int | None = None) -> str:
    meta = f'<meta http-equiv="refresh" content="{refresh}">' if refresh else ""
    return (
        f'<!DOCTYPE html><html lang="{language}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"{meta}<title>{esc(title)}</title><style>{_PAGE_STYLE}</style></head>"
        f"<body><header>{esc(_('Maths games'))}</header><main>{body}</main></body></html>"
    )


def busy_html(language: str, again: str) -> str:
    """The page a visitor sees when the server runs as many kernels as it may.

    >>> "busy" in busy_html("en", "/voila/render/halma.ipynb")
    True
    >>> "zaneprázdněn" in busy_html("cs", "/")
    True
    """
    with _in_language(language):
        title = _("The class server is busy")
        body = (
            f'<h1 class="mg-busy">{esc(title)}</h1>'
            f"<p>{esc(_('The class server is busy: try again in a minute.'))}</p>"
            f"<p>{esc(_('This page tries again by itself every minute.'))}</p>"
            f'<p><a class="mg-button" href="{esc(again)}">{esc(_("Try again"))}</a></p>'
        )
        return _page(language, title, body, refresh=60)


def login_html(language: str, next_url: str, xsrf_field: str, wrong: bool,
               throttled: bool = False) -> str:
    """The class password page (after a wrong password, or too many, it says so).

    >>> html = login_html("pl", "/voila/render/index.ipynb", "", wrong=True)
    >>> 'type="password"' in html and "Hasło klasy" in html
    True
    >>> "wait a minute" in login_html("en", "/", "", wrong=True, throttled=True)
    True
    """
    with _in_language(language):
        title = _("Class password")
        said = (_("Too many wrong passwords: wait a minute, then try again.") if throttled
                else _("Wrong password: ask your teacher."))
        error = (f'<p class="mg-error" role="alert">{esc(said)}</p>' if wrong or throttled
                 else "")
        body = (
            f"<h1>{esc(title)}</h1>{error}"
            f'<form method="post" action="?next={esc(tornado.escape.url_escape(next_url))}'
            f'&amp;lang={language}">{xsrf_field}'
            f'<label for="password">{esc(_("Type the password your teacher gave the class."))}'
            '</label><input type="password" id="password" name="password" autofocus '
            'autocomplete="current-password">'
            f'<button type="submit">{esc(_("Sign in"))}</button></form>'
        )
        return _page(language, title, body)


