"""A TCP relay on loopback that a test can cut, as a classroom's network drops.

``Relay(target_port)`` listens on a free loopback port and passes every connection on
to ``target_port``. :meth:`Relay.cut` closes every connection it carries and, until
:meth:`Relay.restore`, closes each new one at once (a browser's requests and websockets
fail at once, as when the Wi-Fi is gone or the server's computer is unreachable).

>>> import socket, threading
>>> server = socket.create_server(("127.0.0.1", 0))
>>> def echo() -> None:
...     conn, _ = server.accept()
...     conn.sendall(conn.recv(5)); conn.close()
>>> _ = threading.Thread(target=echo, daemon=True).start()
>>> relay = Relay(server.getsockname()[1])
>>> with socket.create_connection(("127.0.0.1", relay.port)) as client:
...     client.sendall(b"hello"); client.recv(5)
b'hello'
>>> relay.cut()
>>> with socket.create_connection(("127.0.0.1", relay.port)) as client:
...     client.recv(5)
b''
>>> relay.close(); server.close()
"""

from __future__ import annotations

import contextlib
import socket
import threading

__all__ = ["Relay"]


class Relay:
    """A loopback TCP relay to ``target_port`` that can be cut and restored."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.open = True
        self.lock = threading.Lock()
        self.carried: set[socket.socket] = set()
        threading.Thread(target=self._accept, daemon=True).start()

    def cut(self) -> None:
        """Drop every connection, and every new one until :meth:`restore`."""
        with self.lock:
            self.open = False
            carried, self.carried = self.carried, set()
        for sock in carried:
            _close(sock)

    def restore(self) -> None:
        """Carry connections again."""
        with self.lock:
            self.open = True

    def close(self) -> None:
        """Stop listening and drop everything."""
        self.cut()
        _close(self.listener)

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._carry, args=(client,), daemon=True).start()

    def _carry(self, client: socket.socket) -> None:
        if not self.open:
            _close(client)
            return
        try:
            upstream = socket.create_connection(("127.0.0.1", self.target_port), timeout=5)
            upstream.settimeout(None)
        except OSError:  # the server is down: the browser sees a closed connection
            _close(client)
            return
        with self.lock:
            if not self.open:
                _close(client)
                _close(upstream)
                return
            self.carried |= {client, upstream}
        threading.Thread(target=_pump, args=(upstream, client), daemon=True).start()
        _pump(client, upstream)


def _pump(source: socket.socket, sink: socket.socket) -> None:
    """Pass bytes from ``source`` to ``sink`` until either end closes, then close both."""
    try:
        while data := source.recv(65536):
            sink.sendall(data)
    except OSError:
        pass
    finally:
        _close(source)
        _close(sink)


def _close(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    sock.close()
