"""The class password: a translated login page, with guessing slowed down per address."""

from __future__ import annotations

import time

from jupyter_server.auth.decorator import allow_unauthenticated
from jupyter_server.auth.login import LoginFormHandler
from jupyter_server.base.handlers import JupyterHandler
from jupyter_server.utils import url_path_join

from mathgames.server.notices import language_for, login_html
from mathgames.server.proxy import client_address

__all__ = ["AppLoginHandler", "AppLogoutHandler", "LoginThrottle"]


class LoginThrottle:
    """Slows down guessing of the class password: after ``tries`` wrong passwords from one
    address within ``window`` seconds, that address waits until the window has passed.

    >>> throttle = LoginThrottle(tries=2, window=60)
    >>> throttle.failed("10.0.0.7", now=0); throttle.failed("10.0.0.7", now=5)
    >>> throttle.wait("10.0.0.7", now=10), throttle.wait("10.0.0.8", now=10)
    (50.0, 0.0)
    >>> throttle.wait("10.0.0.7", now=61)
    0.0
    """

    def __init__(self, tries: int = 5, window: float = 60.0) -> None:
        self.tries = tries
        self.window = window
        self.failures: dict[str, list[float]] = {}

    def wait(self, address: str, now: float) -> float:
        """Seconds this address must wait before it may try again (0: it may now)."""
        recent = [t for t in self.failures.get(address, []) if now - t < self.window]
        if recent:
            self.failures[address] = recent
        else:
            self.failures.pop(address, None)
        if len(recent) < self.tries:
            return 0.0
        return float(recent[-self.tries] + self.window - now)

    def failed(self, address: str, now: float) -> None:
        """A wrong password came from this address."""
        if len(self.failures) > 10_000:  # bounded, whatever a visitor sends
            self.failures.clear()
        self.failures.setdefault(address, []).append(now)

    def forget(self, address: str) -> None:
        """The right password came from this address."""
        self.failures.pop(address, None)


class AppLoginHandler(LoginFormHandler):
    """The class password page, in the visitor's language, with guessing slowed down."""

    throttle = LoginThrottle()

    def _render(self, message: dict[str, str] | None = None) -> None:
        language = language_for(self.request.query, self.request.headers.get("Accept-Language"))
        next_url = self.get_argument("next", default=self.base_url)
        self.set_header("Content-Type", "text/html; charset=UTF-8")
        self.finish(login_html(language, next_url, self.xsrf_form_html(), wrong=bool(message),
                               throttled=self.get_status() == 429))

    @allow_unauthenticated  # as the form it replaces: a visitor signs in here
    def post(self) -> None:
        address = client_address(self.request.remote_ip or "",
                                 self.request.headers.get("X-Forwarded-For"),
                                 self.settings.get("mathgames_trusted_proxies", ()))
        wait = self.throttle.wait(address, time.monotonic())
        if wait > 0:
            self.set_status(429)
            self.set_header("Retry-After", str(int(wait) + 1))
            self._render(message={"error": "too many tries"})
            return
        super().post()
        if self.get_status() == 401:
            self.throttle.failed(address, time.monotonic())
        else:
            self.throttle.forget(address)


class AppLogoutHandler(JupyterHandler):
    """``/logout`` signs the visitor out (forgets the class password) and leads to ``/``."""

    @allow_unauthenticated
    def get(self) -> None:
        self.identity_provider.clear_login_cookie(self)
        self.redirect(url_path_join(self.base_url, "/"))


