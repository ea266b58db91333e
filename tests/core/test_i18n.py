"""Translations: every message of the package is translated, catalogs are compiled."""

from __future__ import annotations

import ast
import gettext
import re
import string
from pathlib import Path

import pytest

from mathgames.core import i18n
from mathgames.core.i18n import LANGUAGES, get_language, set_language, translator
from mathgames.core.po import PoSyntaxError, compile_po, parse_po

PACKAGE = Path(__file__).resolve().parents[2] / "mathgames"
LOCALE = PACKAGE / "locale"
TRANSLATED = [code for code in LANGUAGES if code != "en"]


def messages_in_package() -> dict[str, set[tuple[str, str | None]]]:
    """Every literal message given to a translator, by domain: {(msgid, plural)}."""
    found: dict[str, set[tuple[str, str | None]]] = {}
    for path in PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names: dict[str, str] = {}
        for node in ast.walk(tree):
            if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
                    and getattr(node.value.func, "id", None) in ("translator", "Translator")
                    and node.value.args and isinstance(node.value.args[0], ast.Constant)):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        names[target.id] = node.value.args[0].value
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func, method = node.func, "gettext"
            if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
                method, func = func.attr, func.value
            if not (isinstance(func, ast.Name) and func.id in names):
                continue
            domain = names[func.id]
            args = [a.value if isinstance(a, ast.Constant) else None for a in node.args]
            if method == "gettext":
                key = (args[0], None)
            elif method == "ngettext":
                key = (args[0], args[1])
            elif method == "pgettext":
                key = (f"{args[0]}\x04{args[1]}", None)
            else:
                continue
            assert all(isinstance(k, str) for k in key if k is not None), (
                f"{path}:{node.lineno}: translator calls must use literal strings")
            found.setdefault(domain, set()).add(key)
    return found


MESSAGES = messages_in_package()
CASES = [(domain, lang) for domain in sorted(MESSAGES) for lang in TRANSLATED]


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize(("domain", "lang"), CASES)
def test_every_message_is_translated(domain: str, lang: str) -> None:
    po = LOCALE / lang / "LC_MESSAGES" / f"{domain}.po"
    assert po.exists(), f"missing catalog {po.relative_to(PACKAGE)}"
    entries = parse_po(po.read_text(encoding="utf-8"), str(po))
    by_id = {msgid: (plural, forms) for (msgid, plural), forms in entries.items()}
    missing = [m for m, _ in MESSAGES[domain] if m not in by_id]
    assert not missing, f"{po.name} ({lang}) lacks: {sorted(missing)[:10]}"
    for msgid, plural in MESSAGES[domain]:
        forms = by_id[msgid][1]
        assert all(forms), f"{lang}/{domain}: an empty form for {msgid!r}"
        wanted = fields(msgid) | (fields(plural) if plural else set())
        for form in forms:
            # A plural form may leave out {n} (Russian "одно очко"), never add a field.
            assert fields(form) <= wanted, f"{lang}: {form!r} has fields not in {msgid!r}"
            if plural is None:
                assert fields(form) == wanted, f"{lang}: {form!r} must use {sorted(wanted)}"


@pytest.mark.parametrize("po", sorted(LOCALE.glob("*/LC_MESSAGES/*.po")),
                         ids=lambda p: f"{p.parts[-3]}/{p.name}")
def test_compiled_catalogs_are_up_to_date(po: Path) -> None:
    mo = po.with_suffix(".mo")
    assert mo.exists() and mo.read_bytes() == compile_po(po.read_text(encoding="utf-8")), (
        f"{mo.name} is stale: run `make catalogs`")
    catalog = gettext.GNUTranslations(mo.open("rb"))
    assert catalog.info()["language"] == po.parts[-3]
    nplurals = re.search(r"nplurals=(\d)", catalog.info()["plural-forms"])
    assert nplurals and int(nplurals.group(1)) == 3


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", ["1 point", "2 points", "5 points", "22 points"]),
        ("pl", ["1 punkt", "2 punkty", "5 punktów", "22 punkty"]),
        ("cs", ["1 bod", "2 body", "5 bodů", "22 bodů"]),
        ("ru", ["1 очко", "2 очка", "5 очков", "22 очка"]),
    ],
)
def test_plural_forms_follow_each_language(lang: str, expected: list[str]) -> None:
    _ = translator("core")
    previous = set_language(lang)
    try:
        got = [_.ngettext("{n} point", "{n} points", n).format(n=n) for n in (1, 2, 5, 22)]
    finally:
        set_language(previous)
    assert got == expected


def test_language_listeners_hear_changes_only() -> None:
    heard: list[str] = []
    i18n.on_language_change(heard.append)
    try:
        previous = set_language("ru")
        set_language("ru")
        set_language(previous)
    finally:
        i18n.on_language_change(heard.append, remove=True)
    assert heard == ["ru", previous]
    assert get_language() == previous


def test_unknown_language_is_refused_and_changes_nothing() -> None:
    before = get_language()
    with pytest.raises(ValueError, match="unknown language 'de'"):
        set_language("de")
    assert get_language() == before


@pytest.mark.parametrize(
    ("query", "expected"),
    [("lang=pl", "pl"), ("?x=1&lang=RU", "ru"), ("lang=de", None), ("", None), (None, None),
     ("lang=pl&lang=cs", "pl")],
)
def test_language_from_the_query_string(query: str | None, expected: str | None) -> None:
    assert i18n.language_from_query(query) == expected


def test_po_reader_names_the_line_of_an_error() -> None:
    with pytest.raises(PoSyntaxError, match=r"x.po:3: unknown keyword 'msgfoo'"):
        parse_po('msgid "a"\nmsgstr "b"\nmsgfoo "c"\n', "x.po")


def test_po_reader_skips_fuzzy_and_untranslated_entries() -> None:
    text = ('msgid "a"\nmsgstr "A"\n\n#, fuzzy\nmsgid "b"\nmsgstr "B"\n\n'
            'msgid "c"\nmsgstr ""\n\nmsgctxt "menu"\nmsgid "d"\nmsgstr "D"\n"D"\n')
    assert parse_po(text) == {("a", None): ["A"], ("menu\x04d", None): ["DD"]}
