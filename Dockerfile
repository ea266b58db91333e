# The mathgames app server as a container image: one app server (Voila, the app's pages
# only) whose classes live in the store MATHGAMES_STORE names (PostgreSQL for a school
# with several app servers). deploy/compose.yaml runs two of them behind HAProxy with
# PostgreSQL; docs/deploy.md says what one holds and how to run it on Kubernetes.
#
#   docker build -t mathgames .
#   docker run -p 8866:8866 -e MATHGAMES_STORE=postgresql://user:pw@db/mathgames mathgames
#
# Without a daemon or a registry (as built and run on a Debian 12 machine, issue 66):
# buildah from Debian's packages, a base made with debootstrap and tagged as this FROM,
# vfs storage, chroot isolation; --format docker keeps the HEALTHCHECK (OCI drops it):
#   debootstrap --variant=minbase --include=python3,python3-venv,python-is-python3,ca-certificates
#     bookworm rootfs http://deb.debian.org/debian
#   c=$(buildah --storage-driver vfs from scratch)
#   cp -a rootfs/. "$(buildah --storage-driver vfs mount $c)"/
#   buildah --storage-driver vfs commit $c localhost/python:3.11-slim-bookworm
#   buildah --storage-driver vfs bud --isolation chroot --pull=never --format docker -t mathgames .
# (behind a proxy with its own CA, add -v for /etc/ssl/certs/ca-certificates.crt and
# /etc/pip.conf so that pip inside trusts it)
#
# Settings (environment):
#   PORT              the port inside the container (default 8866)
#   MATHGAMES_STORE   postgresql://user:password@host/dbname (default: a SQLite file in
#                     the user's data folder, for one server alone)
#   MATHGAMES_PUBLIC_URL  the address students type (the proxy's), shown on the pages
#   MATHGAMES_PASSWORD    a class password asked before every page (optional)
#   MATHGAMES_ARGS    more options of python -m mathgames.server.serve, such as
#                     "--max-kernels 80" or "--trusted-proxy 10.0.0.2"
#
# tests/test_deploy.py runs this file's install and start commands in a fresh virtual
# environment (no Docker daemon there) and checks the health check against the server.
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PORT=8866 \
    MATHGAMES_STORE="" \
    MATHGAMES_PUBLIC_URL="" \
    MATHGAMES_ARGS=""

# A user without privileges runs the server and every page's kernel.
RUN useradd --create-home --uid 10001 --shell /usr/sbin/nologin mathgames

WORKDIR /app
COPY pyproject.toml README.md ARCHITECTURE.md ./
COPY mathgames ./mathgames
COPY notebooks ./notebooks
COPY deploy/healthcheck.py ./deploy/healthcheck.py

# The package with its app extra (Voila, psycopg for PostgreSQL), in its own environment.
RUN python -m venv /opt/venv && /opt/venv/bin/pip install --no-cache-dir ".[app]"

USER mathgames
EXPOSE 8866

# Up when the landing address answers with its redirect (it starts no kernel).
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
    CMD ["/opt/venv/bin/python", "/app/deploy/healthcheck.py"]

# Classroom mode on every interface of the container; exec, so that the server gets the
# stop signal (it ends its pages' kernels cleanly).
CMD ["/bin/sh", "-c", "exec /opt/venv/bin/python -m mathgames.server.serve --classroom --ip 0.0.0.0 --port \"$PORT\" $MATHGAMES_ARGS"]
