"""What the server does for every message of every page's kernel, made cheaper.

Every message a page's kernel sends (a widget's state, a status, an output) is read by
the server twice: by the page's renderer (nbclient) while the page's cells run, and by
the kernel manager's activity watcher. Each read turns the header's and the parent
header's ISO 8601 dates into ``datetime`` objects with ``dateutil``'s general parser,
which was an eighth of the server's CPU a page (``bench/classroom_load.py`` under
py-spy). :func:`fast_message_dates` makes jupyter_client's sessions parse those dates
with the standard library's ``datetime.fromisoformat`` (the same values; any string it
cannot read goes to jupyter_client's own parser, as before).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from jupyter_client import jsonutil, session

__all__ = ["extract_dates", "fast_message_dates", "parse_date"]


def parse_date(text: str | None) -> str | datetime | None:
    """jupyter_client's :func:`~jupyter_client.jsonutil.parse_date`, faster.

    >>> parse_date("2026-12-06T01:42:37.123456Z")
    datetime.datetime(2026, 12, 6, 1, 42, 37, 123456, tzinfo=datetime.timezone.utc)
    >>> parse_date("2026-12-06T01:42:37.123Z") == jsonutil.parse_date("2026-12-06T01:42:37.123Z")
    True
    >>> parse_date("execute_request"), parse_date(None)
    ('execute_request', None)
    """
    if text is None or not jsonutil.ISO8601_PAT.match(text):
        return text
    try:
        found = datetime.fromisoformat(text)
    except ValueError:
        return jsonutil.parse_date(text)
    if found.tzinfo is None:  # jupyter_client's way: local time, with its warning
        return jsonutil.parse_date(text)
    return found


def extract_dates(obj: Any) -> Any:
    """jupyter_client's :func:`~jupyter_client.jsonutil.extract_dates` (a copy of ``obj``
    with its ISO 8601 strings as dates), with :func:`parse_date`.

    >>> extract_dates({"date": "2026-12-06T01:42:37Z", "msg_type": "status", "n": [1]})
    {'date': datetime.datetime(2026, 12, 6, 1, 42, 37, tzinfo=datetime.timezone.utc), \
'msg_type': 'status', 'n': [1]}
    """
    if isinstance(obj, dict):
        return {key: extract_dates(value) for key, value in obj.items()}
    if isinstance(obj, list | tuple):
        return [extract_dates(value) for value in obj]
    if isinstance(obj, str):
        return parse_date(obj)
    return obj


def fast_message_dates() -> None:
    """Make jupyter_client's sessions read messages' dates with :func:`extract_dates`
    (idempotent; the server calls it once at its start)."""
    session.extract_dates = extract_dates  # type: ignore[attr-defined]
