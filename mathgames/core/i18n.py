"""Translations: gettext catalogs for English (the source), Polish, Czech and Russian.

Each game has its own gettext *domain* (``core``, ``matematiko``, ``triomino``, ``mosaic``,
``halma``, ``app``, ...), stored as ``mathgames/locale/<lang>/LC_MESSAGES/<domain>.po``
and compiled to ``.mo`` files that ship in the wheel (``python -m mathgames.core.i18n``
recompiles them). The language is chosen once per kernel, which in Voila means once
per visitor; translators look it up at call time, so widgets that re-render after
:func:`set_language` show the new language at once.

>>> from mathgames.core.i18n import set_language, translator
>>> _ = translator("core")
>>> previous = set_language("pl")
>>> _.ngettext("{n} point", "{n} points", 5).format(n=5)
'5 punktów'
>>> _ = translator("core"); set_language("en") == "pl"
True
>>> _("Undo")
'Undo'
>>> set_language(previous) == "en"
True
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Callable
from pathlib import Path
from urllib.parse import parse_qs

from mathgames.core.errors import check_choice

__all__ = [
    "LANGUAGES",
    "Translator",
    "format_number",
    "get_language",
    "in_quotes",
    "language_from_environment",
    "language_from_query",
    "on_language_change",
    "set_language",
    "translator",
    "warm_up",
]

#: Supported languages: code -> the language's own name.
LANGUAGES: dict[str, str] = {"en": "English", "pl": "Polski", "cs": "Čeština", "ru": "Русский"}

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"

_listeners: list[Callable[[str], None]] = []


def language_from_query(query: str | None) -> str | None:
    """The supported language named by ``lang=`` in a URL query string, if any.

    >>> language_from_query("lang=cs&x=1")
    'cs'
    >>> language_from_query("?lang=de") is None
    True
    """
    if not query:
        return None
    values = parse_qs(query.lstrip("?")).get("lang", [])
    for value in values:
        code = value.strip().lower()[:5]
        if code in LANGUAGES:
            return code
    return None


def language_from_environment() -> str:
    """The page's language as its kernel's environment gives it (``en`` if none).

    Voila passes the page's query string to the kernel as ``QUERY_STRING``;
    ``MATHGAMES_LANG`` is a fallback for scripts.

    >>> import os
    >>> kept = os.environ.get("QUERY_STRING")
    >>> os.environ["QUERY_STRING"] = "seed=4&lang=ru"
    >>> language_from_environment()
    'ru'
    >>> if kept is None: del os.environ["QUERY_STRING"]
    ... else: os.environ["QUERY_STRING"] = kept
    """
    return (
        language_from_query(os.environ.get("QUERY_STRING"))
        or (os.environ.get("MATHGAMES_LANG", "").lower() if os.environ.get(
            "MATHGAMES_LANG", "").lower() in LANGUAGES else None)
        or "en"
    )


_current = language_from_environment()


#: The locales numbers are written in, per language (Babel's CLDR data).
NUMBER_LOCALES = {"en": "en", "pl": "pl_PL", "cs": "cs_CZ", "ru": "ru_RU"}


def format_number(value: float, digits: int = 0) -> str:
    """``value`` with ``digits`` digits after the point, in the current language's format.

    Babel (the app's dependency) writes it; without Babel, the English form.

    >>> previous = set_language("cs")
    >>> format_number(1000), format_number(27.19, 1)
    ('1\xa0000', '27,2')
    >>> _ = set_language("en"); format_number(1000), format_number(27.19, 1)
    ('1,000', '27.2')
    >>> _ = set_language(previous)
    """
    try:
        from babel.numbers import format_decimal
    except ImportError:  # the rules cores alone: English digits
        return f"{value:,.{digits}f}"
    pattern = "#,##0" + ("." + "0" * digits if digits else "")
    return format_decimal(value, format=pattern, locale=NUMBER_LOCALES.get(_current, "en"))


#: Each language's quotation marks (opening, closing) around a text a user typed.
QUOTES: dict[str, tuple[str, str]] = {
    "en": ("\u201c", "\u201d"), "pl": ("\u201e", "\u201d"), "cs": ("\u201e", "\u201c"),
    "ru": ("\u00ab", "\u00bb")}


def in_quotes(text: str) -> str:
    """``text`` between the current language's quotation marks (a code or a card a user
    typed, quoted in a message: never Python's ``'...'``).

    >>> previous = set_language("ru")
    >>> in_quotes("K3M9")
    '«K3M9»'
    >>> [(set_language(code), in_quotes("B0SL1"))[1] for code in ("en", "pl", "cs")]
    ['“B0SL1”', '„B0SL1”', '„B0SL1“']
    >>> _ = set_language(previous)
    """
    opening, closing = QUOTES.get(_current, QUOTES["en"])
    return f"{opening}{text}{closing}"


def get_language() -> str:
    """The current language code.

    >>> get_language() in LANGUAGES
    True
    """
    return _current


def set_language(code: str) -> str:
    """Switch the language of every translator; returns the previous language code.

    Listeners registered with :func:`on_language_change` are told of a change.

    >>> old = set_language("cs"); get_language()
    'cs'
    >>> set_language("xx")
    Traceback (most recent call last):
    ...
    ValueError: unknown language 'xx'; choose one of en, pl, cs, ru
    >>> _ = set_language(old)
    """
    global _current
    check_choice("language", code, LANGUAGES)
    previous, _current = _current, code
    if code != previous:
        for listener in list(_listeners):
            listener(code)
    return previous


def on_language_change(callback: Callable[[str], None], remove: bool = False) -> None:
    """Call ``callback(code)`` whenever the language changes (or stop, with ``remove``).

    >>> heard = []
    >>> on_language_change(heard.append)
    >>> _ = set_language("pl"); _ = set_language("en")
    >>> on_language_change(heard.append, remove=True)
    >>> _ = set_language("cs"); _ = set_language("en")
    >>> heard
    ['pl', 'en']
    """
    if remove:
        if callback in _listeners:
            _listeners.remove(callback)
    elif callback not in _listeners:
        _listeners.append(callback)


_catalogs: dict[tuple[str, str], gettext.NullTranslations] = {}


def _catalog(domain: str, language: str) -> gettext.NullTranslations:
    key = (domain, language)
    if key not in _catalogs:
        if language == "en":
            _catalogs[key] = gettext.NullTranslations()
        else:
            _catalogs[key] = gettext.translation(
                domain, localedir=LOCALE_DIR, languages=[language], fallback=True
            )
    return _catalogs[key]


class Translator:
    """Translates the messages of one domain into the current language.

    Calling the translator is :meth:`gettext`. Messages use ``str.format`` fields,
    filled in by the caller after translation.

    >>> _ = Translator("core")
    >>> _("Undo") == _.gettext("Undo")
    True
    """

    def __init__(self, domain: str) -> None:
        self.domain = domain

    def gettext(self, message: str) -> str:
        """The translation of ``message`` (the message itself if none)."""
        return _catalog(self.domain, _current).gettext(message)

    __call__ = gettext

    def gettext_in(self, language: str, message: str) -> str:
        """The translation of ``message`` into ``language`` (not the current one).

        >>> Translator("core").gettext_in("pl", "Undo")
        'Cofnij'
        """
        return _catalog(self.domain, language).gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The plural form for ``n``, by the language's own plural rule."""
        return _catalog(self.domain, _current).ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str) -> str:
        """``message`` translated in a context (for short, ambiguous words)."""
        return _catalog(self.domain, _current).pgettext(context, message)

    def __repr__(self) -> str:
        return f"Translator({self.domain!r})"


def translator(domain: str) -> Translator:
    """The translator of one domain (the usual name for it is ``_``).

    >>> translator("matematiko")
    Translator('matematiko')
    """
    return Translator(domain)


def warm_up() -> None:
    """Read every catalog and every language's number format now, not on a page's first use.

    The kernel template (:mod:`mathgames.server.kernel_forks`) calls it before it forks: a
    page's kernel then finds them in memory. Babel's number data for one language was the
    largest single cost of a game page's cells (its locale files read and unpickled). The
    current language is unchanged.

    >>> warm_up(); ("core", "pl") in _catalogs
    True
    """
    domains = sorted({mo.stem for mo in LOCALE_DIR.glob("*/LC_MESSAGES/*.mo")})
    for language in LANGUAGES:
        for domain in domains:
            _catalog(domain, language)
    try:
        from babel.numbers import format_decimal
    except ImportError:  # the rules cores alone: nothing to read
        return
    for locale in NUMBER_LOCALES.values():
        format_decimal(1000.5, format="#,##0.0", locale=locale)


def compile_catalogs(locale_dir: Path = LOCALE_DIR) -> list[Path]:
    """Compile every ``.po`` under ``locale_dir`` to its ``.mo``; returns the written files."""
    from mathgames.core.po import compile_po

    written = []
    for po in sorted(locale_dir.glob("*/LC_MESSAGES/*.po")):
        mo = po.with_suffix(".mo")
        data = compile_po(po.read_text(encoding="utf-8"), source=str(po))
        if not mo.exists() or mo.read_bytes() != data:
            mo.write_bytes(data)
            written.append(mo)
    return written


if __name__ == "__main__":  # pragma: no cover - a developer's command
    for path in compile_catalogs():
        print("wrote", path.relative_to(LOCALE_DIR.parent.parent))
