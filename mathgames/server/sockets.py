"""Room for a class's sockets: ZeroMQ's socket limit and the open-files limit, raised."""

from __future__ import annotations

from typing import Any

__all__ = ["SOCKETS_PER_PAGE", "allow_sockets"]


#: ZeroMQ sockets counted for each open page: its kernel's five channels for the page's
#: websocket, and again for the server's own requests, with room to spare.
SOCKETS_PER_PAGE = 16


def allow_sockets(context: Any, pages: int) -> int:
    """Let the server's ZeroMQ ``context`` (and its open files) hold ``pages`` pages
    (0: a thousand); the sockets it then allows. ZeroMQ allows 1,023 sockets by default,
    and a page's kernel connections use five or more: without this, a server with about
    200 pages open failed with "Too many open files". Call before the first socket.

    >>> import zmq
    >>> context = zmq.Context()
    >>> allow_sockets(context, 200) >= 200 * SOCKETS_PER_PAGE
    True
    >>> context.term()
    """
    import zmq

    want = SOCKETS_PER_PAGE * (pages or 1000) + 256
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        files = 4 * want  # a ZeroMQ socket over ipc uses a few descriptors
        if soft != resource.RLIM_INFINITY and soft < files:
            raised = files if hard == resource.RLIM_INFINITY else min(hard, files)
            resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, raised), hard))
    except (ImportError, ValueError, OSError):  # not POSIX, or not allowed: as it was
        pass
    if context.get(zmq.MAX_SOCKETS) < want:
        context.set(zmq.MAX_SOCKETS, want)
    return int(context.get(zmq.MAX_SOCKETS))


