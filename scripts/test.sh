#!/usr/bin/env bash
# The whole test suite, on a fresh machine too: uv (scripts/uv.sh: found, or installed with
# pipx, pip, or pip in a virtual environment of its own where the system's Python is
# EXTERNALLY-MANAGED), PostgreSQL's server (Debian's
# package, for the store's tests), Chromium (Debian's package, for the browser app's
# end-to-end tests), nginx with openssl (Debian's packages, for the tests behind a reverse
# proxy), gcc and Python's headers (Debian's, for the compiled engine's test) when they are
# missing, then pytest from the lock file with the dev group (pytest, the browser driver,
# and through it the research extras `rl` and `ray` that the suite checks).
# Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
uv="$(bash scripts/uv.sh)"
if ! compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null; then
    echo "installing PostgreSQL (Debian's postgresql) for the store's tests" >&2
    sudo=""
    if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq postgresql >/dev/null
fi
if [ ! -x /usr/bin/chromium ]; then
    echo "installing Chromium (Debian's chromium) for the browser app's end-to-end tests" >&2
    sudo=""
    if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
fi
if [ ! -x /usr/sbin/nginx ] || ! command -v openssl >/dev/null; then
    echo "installing nginx and openssl (Debian's) for the tests behind a reverse proxy" >&2
    sudo=""
    if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq nginx openssl >/dev/null
fi
if ! command -v cc >/dev/null; then
    echo "installing gcc (Debian's) for the compiled engine's test (mypyc)" >&2
    sudo=""
    if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq gcc >/dev/null
fi
if [ ! -f tests/axe/node_modules/axe-core/axe.min.js ]; then
    if ! command -v npm >/dev/null; then
        echo "installing npm (Debian's) for the accessibility test's axe-core" >&2
        sudo=""
        if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq npm >/dev/null
    fi
    echo "installing axe-core (npm, tests/axe/package.json) for the accessibility test" >&2
    (cd tests/axe && npm install --no-audit --no-fund --silent)
fi
headers='import os, sysconfig; print(os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))'
if [ "$("$uv" run --locked --group dev python -c "$headers")" != True ]; then
    echo "installing Python's C headers (Debian's python3-dev) for the compiled engine's test" >&2
    sudo=""
    if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq python3-dev >/dev/null
fi
exec "$uv" run --locked --group dev pytest "$@"
