"""Secrets that prove who acts: one per participant, kept only as a hash.

A student's page gets a random token when the student joins and keeps it in
the browser's local storage; the store keeps only its SHA-256 hash (in the join
event), so reading the store never reveals a token. Every action a kernel
appends on behalf of a browser is checked against the hash first.

>>> token = new_token()
>>> len(token) >= 32
True
>>> check_token(token, hash_token(token)), check_token("forged", hash_token(token))
(True, False)
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

__all__ = ["check_token", "hash_token", "new_token"]


def new_token() -> str:
    """A fresh secret (32 random bytes, URL-safe text)."""
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    """The hash kept in the store.

    >>> hash_token("abc")[:12]
    'ba7816bf8f01'
    """
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def check_token(token: object, expected_hash: object) -> bool:
    """True when ``token`` is text whose hash is ``expected_hash`` (constant-time compare)."""
    if not isinstance(token, str) or not isinstance(expected_hash, str) or len(token) > 200:
        return False
    return hmac.compare_digest(hash_token(token), expected_hash)
