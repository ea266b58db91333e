"""How many pages the app's server admits: from the computer's memory, as measured.

A page of the app costs its kernel. Measured with 80 game pages open at once
(``bench/classroom_load.py``), a game page's kernel, forked from the warm template,
costs 27 MiB of proportional memory (PSS), the server about 150 MiB and the
template 25 MiB; a lesson page with its charts costs about twice a game page. A plain
kernel (started anew: macOS, Windows, ``MATHGAMES_FORK=0``) costs 46 MiB (30 pages).
The server admits pages by two rules:

- **a cap** on the pages open at once, from the computer's memory: what is left
  after :data:`RESERVE_MIB` for the system, the server and the teacher's own
  browser, at :data:`PAGE_MIB` a page (more than twice a game page's measured cost,
  so that a class of lessons fits too). ``--max-kernels`` (``MAX_KERNELS``) replaces it;
- **no swapping**: a new page is refused (the "busy" page) while the memory the
  system can still give (``MemAvailable`` of ``/proc/meminfo`` on Linux; elsewhere,
  macOS and Windows, psutil's ``available``), less :data:`PAGE_MIB` for every page
  still starting, would fall below a guard (1/32 of the memory, at least 256 MiB).
  This rule holds whatever the cap, so a computer busy with other work never
  swaps because of the class.

>>> [memory_cap(gib * 2**30) for gib in (2, 4, 8, 16)]
[16, 48, 112, 240]
>>> rule = Admission(cap=3, meminfo=lambda: {})
>>> [rule.admits(open_pages) for open_pages in range(5)]
[True, True, True, False, False]
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

__all__ = ["GUARD_MIN_MIB", "PAGE_MIB", "PLAIN_PAGE_MIB", "RESERVE_MIB", "Admission", "Door",
           "memory_cap", "page_mib", "read_meminfo", "read_memory"]

#: Memory counted for each open page (a game page's kernel measures 27 MiB PSS).
PAGE_MIB = 64
#: Memory counted for each open page when kernels start anew instead of forking (macOS,
#: Windows, ``MATHGAMES_FORK=0``): nothing is shared with a template, so a game page's
#: kernel measures 47-48 MiB PSS (``bench/classroom_load.py --sizes 30 100 --no-fork``, 6
#: December 2026; 29-30 MiB forked); counted, as :data:`PAGE_MIB`, at twice that, for
#: lesson pages.
PLAIN_PAGE_MIB = 96
#: Memory left to the system, the server and the teacher's browser before the cap counts pages.
RESERVE_MIB = 1024
#: The least memory kept free (``MemAvailable``) when a page is admitted.
GUARD_MIN_MIB = 256
#: Where the memory is read; the environment variable ``MATHGAMES_MEMINFO`` may name another
#: file in the same format (tests, or a container whose own limit is written elsewhere).
MEMINFO = "/proc/meminfo"

_MIB = 2**20


def read_meminfo(path: str | None = None) -> dict[str, int]:
    """``MemTotal`` and ``MemAvailable`` in bytes from ``/proc/meminfo`` (``{}`` elsewhere).

    >>> import tempfile
    >>> with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as fake:
    ...     _ = fake.write("MemTotal:  8000000 kB\\nMemFree: 10 kB\\nMemAvailable: 4000 kB\\n")
    >>> read_meminfo(fake.name)
    {'MemTotal': 8192000000, 'MemAvailable': 4096000}
    >>> read_meminfo("/no/such/file")
    {}
    """
    path = path or os.environ.get("MATHGAMES_MEMINFO") or MEMINFO
    found: dict[str, int] = {}
    try:
        with open(path, encoding="ascii", errors="replace") as lines:
            for line in lines:
                name, _, rest = line.partition(":")
                if name in ("MemTotal", "MemAvailable"):
                    parts = rest.split()
                    if parts and parts[0].isdigit():
                        found[name] = int(parts[0]) * 1024
    except OSError:
        return {}
    return found


def read_psutil() -> dict[str, int]:
    """``MemTotal`` and ``MemAvailable`` in bytes from psutil (``{}`` without psutil).

    >>> sorted(read_psutil()) in ([], ["MemAvailable", "MemTotal"])
    True
    """
    try:
        import psutil

        memory = psutil.virtual_memory()
    except (ImportError, OSError, RuntimeError):
        return {}
    return {"MemTotal": int(memory.total), "MemAvailable": int(memory.available)}


def read_memory() -> dict[str, int]:
    """The memory's reading for the memory rule: ``/proc/meminfo`` (Linux, or the file
    ``MATHGAMES_MEMINFO`` names), else psutil's (macOS, Windows), else ``{}``.

    >>> reading = read_memory()
    >>> not reading or reading["MemAvailable"] <= reading["MemTotal"]
    True
    """
    found = read_meminfo()
    if "MemAvailable" in found or os.environ.get("MATHGAMES_MEMINFO"):
        return found
    return read_psutil() or found


def total_memory() -> int | None:
    """The computer's memory in bytes (``MemTotal``, else the POSIX page count), or ``None``."""
    total = read_memory().get("MemTotal")
    if total:
        return total
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # not a POSIX system
        return None


def page_mib(fork_kernels: bool | None = None) -> int:
    """Memory counted per page: :data:`PAGE_MIB` with forked kernels, :data:`PLAIN_PAGE_MIB`
    with plain ones (by default, as the server here runs them: :func:`~mathgames.server.
    kernel_forks.fork_supported`).

    >>> page_mib(True), page_mib(False)
    (64, 96)
    """
    if fork_kernels is None:
        from mathgames.server.kernel_forks import fork_supported

        fork_kernels = fork_supported()
    return PAGE_MIB if fork_kernels else PLAIN_PAGE_MIB


def memory_cap(total_bytes: int | None = None, per_page_mib: int = PAGE_MIB) -> int:
    """Pages open at once that the memory holds: (memory - 1 GiB) at ``per_page_mib``
    (64 MiB) a page, at least 2.

    >>> memory_cap(8 * 2**30), memory_cap(1226 * 2**20)
    (112, 3)
    >>> [memory_cap(gib * 2**30, PLAIN_PAGE_MIB) for gib in (4, 8, 16)]
    [32, 74, 160]
    """
    if total_bytes is None:
        total_bytes = total_memory() or 4 * 2**30
    return max(2, (total_bytes // _MIB - RESERVE_MIB) // per_page_mib)


def guard_bytes(total_bytes: int | None) -> int:
    """The memory kept free: 1/32 of the computer's, at least 256 MiB.

    >>> guard_bytes(8 * 2**30) // 2**20, guard_bytes(16 * 2**30) // 2**20
    (256, 512)
    """
    return max(GUARD_MIN_MIB * _MIB, (total_bytes or 0) // 32)


@dataclass
class Admission:
    """The server's rule: may one more page open now?

    ``cap`` is the most pages open at once (0: no cap); ``meminfo`` reads the memory
    (:func:`read_memory`; a test passes a fake reading).

    >>> fake = {"MemTotal": 8 * 2**30, "MemAvailable": 300 * 2**20}
    >>> Admission(cap=0, meminfo=lambda: fake).admits(0)  # 300 MiB < 256 + 64: swap
    False
    >>> fake["MemAvailable"] = 2**30
    >>> Admission(cap=0, meminfo=lambda: fake).admits(0, starting=12)  # 12 pages on the way
    False
    >>> Admission(cap=0, meminfo=lambda: fake).admits(50, starting=2)
    True
    """

    cap: int
    meminfo: Callable[[], dict[str, int]] = field(default=read_memory)
    #: memory counted for each page still starting (:func:`page_mib`)
    per_page_mib: int = PAGE_MIB

    def admits(self, open_pages: int, starting: int = 0) -> bool:
        """Whether a new page fits beside ``open_pages`` (``starting`` of them not yet
        grown to their size, so not yet seen in the memory's reading)."""
        if self.cap and open_pages >= self.cap:
            return False
        memory = self.meminfo()
        available = memory.get("MemAvailable")
        if available is None:  # no reading (neither /proc/meminfo nor psutil): the cap alone
            return True
        need = guard_bytes(memory.get("MemTotal")) + self.per_page_mib * _MIB * (1 + starting)
        return available >= need

    def why_not(self, open_pages: int) -> str:
        """In a word, for the server's log: ``"cap"`` or ``"memory"``.

        >>> Admission(cap=2, meminfo=lambda: {}).why_not(2)
        'cap'
        """
        return "cap" if self.cap and open_pages >= self.cap else "memory"


class Reaper(Protocol):
    """What the door needs of the reaper (:class:`mathgames.server.reaper.KernelReaper`)."""

    ending: set[str]

    def flooding(self, address: str) -> bool: ...
    def make_way(self, address: str) -> None: ...
    def evict(self, for_address: str = "") -> bool: ...


class Door:
    """The server's one decision on a visitor: a page, or the "busy" page, and why.

    ``running()`` counts the server's kernels; ``pending()`` the pages admitted whose kernel
    has not started yet; ``rendering()`` the pages being rendered (their kernels still
    growing, not yet seen in the memory's reading). The rules, in order:

    - a **flood** (an address whose pages never connect, told by the reaper) gets nothing
      while the server is :meth:`crowded`, and otherwise one page in place of its oldest;
    - the **memory rule** (:class:`Admission`: the cap, and no swapping) admits the page;
    - else the reaper **evicts** a page no one uses (a flood's first, never the visitor's
      own unconnected page) and the memory rule is asked again.

    >>> door = Door(Admission(cap=2, meminfo=lambda: {}), None, running=lambda: 1)
    >>> door.admit("10.0.0.7")
    ''
    >>> Door(Admission(cap=1, meminfo=lambda: {}), None, running=lambda: 1).admit("10.0.0.7")
    'cap'
    """

    def __init__(self, admission: Admission, reaper: Reaper | None, running: Callable[[], int],
                 pending: Callable[[], int] = lambda: 0,
                 rendering: Callable[[], int] = lambda: 0) -> None:
        self.admission = admission
        self.reaper = reaper
        self.running = running
        self.pending = pending
        self.rendering = rendering

    def open_pages(self) -> int:
        """Pages open or on their way (kernels being ended no longer count)."""
        ending = len(self.reaper.ending) if self.reaper is not None else 0
        return max(0, self.running() - ending) + self.pending()

    def crowded(self) -> bool:
        """Whether the server is near its limit: 3/4 of its cap, or memory for 8 pages."""
        if self.admission.cap and self.running() >= 0.75 * self.admission.cap:
            return True
        return not self.admission.admits(0, starting=8)

    def admit(self, address: str) -> str:
        """``""`` when a page from ``address`` may open now, else why not, in a word for
        the server's log (``"flood"``, ``"cap"`` or ``"memory"``)."""
        reaper = self.reaper
        if reaper is not None and reaper.flooding(address):
            if self.crowded():
                return "flood"
            reaper.make_way(address)
        if self.admission.admits(self.open_pages(), self.rendering()):
            return ""
        if reaper is not None and reaper.evict(address) and self.admission.admits(
                self.open_pages(), self.rendering()):
            return ""
        return self.admission.why_not(self.open_pages())
