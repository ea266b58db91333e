"""A small reader for gettext ``.po`` files and writer of ``.mo`` files.

It lets the project compile its catalogs with nothing but the standard library.

>>> po = '''
... msgid ""
... msgstr "Content-Type: text/plain; charset=UTF-8\\\\n"
...
... msgid "Undo"
... msgstr "Cofnij"
... '''
>>> sorted(parse_po(po))
[('', None), ('Undo', None)]
>>> compile_po(po)[:4] == b'\\xde\\x12\\x04\\x95'
True
"""

from __future__ import annotations

import ast
import struct

__all__ = ["PoSyntaxError", "compile_po", "parse_po"]

Key = tuple[str, "str | None"]  # (msgid with context prefix, msgid_plural)


class PoSyntaxError(ValueError):
    """A ``.po`` file that cannot be read; the message names the line."""


def _unquote(text: str, where: str) -> str:
    text = text.strip()
    if not (len(text) >= 2 and text[0] == '"' and text[-1] == '"'):
        raise PoSyntaxError(f"{where}: expected a quoted string, found {text!r}")
    return ast.literal_eval(text)


def parse_po(text: str, source: str = "<po>") -> dict[Key, list[str]]:
    """Parse a ``.po`` text to ``{(msgid, msgid_plural): [msgstr, ...]}``.

    Fuzzy entries and entries with an empty translation are left out, so that
    gettext falls back to the English source for them.
    """
    entries: dict[Key, list[str]] = {}
    fields: dict[str, str] = {}
    current: str | None = None
    fuzzy = False

    def finish() -> None:
        nonlocal fields, fuzzy, current
        if "msgid" in fields:
            msgid = fields["msgid"]
            if "msgctxt" in fields:
                msgid = fields["msgctxt"] + "\x04" + msgid
            plural = fields.get("msgid_plural")
            forms = [fields[k] for k in sorted(
                (k for k in fields if k.startswith("msgstr")),
                key=lambda k: int(k[7:-1]) if "[" in k else 0)]
            if not fuzzy and any(forms):
                entries[(msgid, plural)] = forms
        fields, fuzzy, current = {}, False, None

    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        where = f"{source}:{number}"
        if not line:
            finish()
        elif line.startswith("#,") and "fuzzy" in line:
            finish()
            fuzzy = True
        elif line.startswith("#"):
            if "msgid" in fields and current and current.startswith("msgstr"):
                finish()
        elif line.startswith('"'):
            if current is None:
                raise PoSyntaxError(f"{where}: a string continues no field")
            fields[current] += _unquote(line, where)
        else:
            keyword, _, rest = line.partition(" ")
            if keyword not in ("msgctxt", "msgid", "msgid_plural", "msgstr") and not (
                keyword.startswith("msgstr[") and keyword.endswith("]")
            ):
                raise PoSyntaxError(f"{where}: unknown keyword {keyword!r}")
            if keyword in ("msgctxt", "msgid") and any(k.startswith("msgstr") for k in fields):
                finish()
            fields[keyword] = _unquote(rest, where)
            current = keyword
    finish()
    return entries


def compile_po(text: str, source: str = "<po>") -> bytes:
    """The bytes of the ``.mo`` file for a ``.po`` text (little-endian, no hash table)."""
    entries = parse_po(text, source)
    pairs = []
    for (msgid, plural), forms in entries.items():
        key = msgid if plural is None else msgid + "\0" + plural
        pairs.append((key.encode("utf-8"), "\0".join(forms).encode("utf-8")))
    pairs.sort()
    count = len(pairs)
    header_size = 7 * 4
    originals_at = header_size
    translations_at = originals_at + count * 8
    data_at = translations_at + count * 8
    originals, translations, blob = [], [], b""
    for key, _value in pairs:
        originals.append((len(key), data_at + len(blob)))
        blob += key + b"\0"
    for _key, value in pairs:
        translations.append((len(value), data_at + len(blob)))
        blob += value + b"\0"
    out = struct.pack("<7I", 0x950412DE, 0, count, originals_at, translations_at, 0, data_at)
    for length, offset in originals + translations:
        out += struct.pack("<2I", length, offset)
    return out + blob
