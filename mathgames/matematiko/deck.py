"""Game codes and the shuffle they determine, identical on every machine.

A game code is 6 characters from an alphabet without look-alikes (no 0/O,
1/I/L). The code fixes the whole shuffle, so a class types the same code on 30
devices and every student gets the same 25 numbers.

The shuffle is specified here, not borrowed from :mod:`random` (whose
algorithms may change between Python versions):

1. ``seed`` = the first 8 bytes, big-endian, of SHA-256 of ``b"matematiko-v1:" + CODE``.
2. A SplitMix64 generator (Steele, Lea and Flood 2014) is started from ``seed``.
3. The deck 1,1,1,1,2,...,13 (four of each, ascending) is shuffled by
   Fisher-Yates: for ``i`` from 51 down to 1, swap position ``i`` with
   ``j = uniform(i + 1)``, where ``uniform(n)`` draws 64-bit outputs until one
   falls below the largest multiple of ``n`` not above 2**64 (no modulo bias)
   and takes it modulo ``n``.
4. The deal is the first 25 cards of the shuffled deck.

>>> deal = deal_for_code("mat-3k7")
>>> len(deal), deal == deal_for_code("MAT3K7")
(25, True)
>>> normalize_code("mat 3k7")
'MAT3K7'
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterator

from mathgames.core.errors import MathgamesError, quoted
from mathgames.matematiko.rules import DECK, GRID_SIZE

__all__ = [
    "CODE_ALPHABET",
    "CODE_LENGTH",
    "DEAL_LENGTH",
    "GameCodeError",
    "deal_for_code",
    "new_code",
    "normalize_code",
    "shuffled_deck",
    "splitmix64",
]

#: Upper-case letters and digits that cannot be mistaken for one another.
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 6
#: Cards called in one game.
DEAL_LENGTH = GRID_SIZE * GRID_SIZE

_MASK64 = (1 << 64) - 1


class GameCodeError(MathgamesError, ValueError):
    """A game code that cannot be read (wrong length or characters)."""


def splitmix64(seed: int) -> Iterator[int]:
    """The SplitMix64 stream of 64-bit integers started from ``seed``.

    >>> stream = splitmix64(1234567)
    >>> next(stream), next(stream)
    (6457827717110365317, 3203168211198807973)
    """
    state = seed & _MASK64
    while True:
        state = (state + 0x9E3779B97F4A7C15) & _MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        yield z ^ (z >> 31)


def _uniform(stream: Iterator[int], n: int) -> int:
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        x = next(stream)
        if x < limit:
            return x % n


def normalize_code(code: str) -> str:
    """The canonical form of a code: upper case, spaces and dashes removed.

    >>> normalize_code("ab-c")
    Traceback (most recent call last):
    ...
    mathgames.matematiko.deck.GameCodeError: game code 'ab-c': it has 3 characters, a code has 6
    >>> normalize_code("ABCDE1")
    Traceback (most recent call last):
    ...
    mathgames.matematiko.deck.GameCodeError: game code 'ABCDE1': '1' is not used in codes
    """
    if not isinstance(code, str):
        raise GameCodeError(f"game code {quoted(code)}: a code is text")
    text = "".join(ch for ch in code.upper() if ch not in " -_\t")
    for ch in text:
        if ch not in CODE_ALPHABET:
            raise GameCodeError(f"game code {quoted(code)}: {ch!r} is not used in codes")
    if len(text) != CODE_LENGTH:
        raise GameCodeError(
            f"game code {quoted(code)}: it has {len(text)} characters, a code has {CODE_LENGTH}")
    return text


def new_code() -> str:
    """A fresh random code (from the operating system's randomness).

    >>> normalize_code(new_code()) is not None
    True
    """
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def shuffled_deck(seed: int) -> list[int]:
    """All 52 cards shuffled by Fisher-Yates driven by SplitMix64 from ``seed``.

    >>> sorted(shuffled_deck(7)) == sorted(DECK)
    True
    """
    cards = list(DECK)
    stream = splitmix64(seed)
    for i in range(len(cards) - 1, 0, -1):
        j = _uniform(stream, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def code_seed(code: str) -> int:
    """The 64-bit seed of a game code."""
    digest = hashlib.sha256(b"matematiko-v1:" + normalize_code(code).encode("ascii")).digest()
    return int.from_bytes(digest[:8], "big")


def deal_for_code(code: str) -> tuple[int, ...]:
    """The 25 numbers a game code calls, in order."""
    return tuple(shuffled_deck(code_seed(code))[:DEAL_LENGTH])
