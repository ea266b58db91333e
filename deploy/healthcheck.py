"""The container's health check: is the app server on ``$PORT`` answering?

``GET /`` on loopback must answer with the landing page's redirect (302). The
redirect is not followed: rendering the landing page would start a kernel every
time the check runs. Exit status 0 when healthy, 1 otherwise (what Docker's
``HEALTHCHECK`` and Kubernetes' ``exec`` probes expect). Only the standard library.

    python deploy/healthcheck.py            # port from $PORT, default 8866
    python deploy/healthcheck.py 8871
"""

from __future__ import annotations

import http.client
import os
import sys


def healthy(port: int, host: str = "127.0.0.1", timeout: float = 5.0) -> bool:
    """True when the app server on ``host:port`` answers ``GET /`` with its redirect."""
    connection = http.client.HTTPConnection(host, port, timeout=timeout)
    try:
        connection.request("GET", "/")
        return connection.getresponse().status == 302
    except (OSError, http.client.HTTPException):
        return False
    finally:
        connection.close()


def main(argv: list[str]) -> int:
    port = int(argv[1]) if len(argv) > 1 else int(os.environ.get("PORT", "8866"))
    ok = healthy(port)
    print("healthy" if ok else f"no answer from the app server on port {port}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
