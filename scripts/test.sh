#!/usr/bin/env bash
# The whole test suite, on a fresh machine too: uv (from pip), PostgreSQL's server (Debian's
# package, for the store's tests) when it is missing, then pytest from the lock file.
# Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install -q uv
if ! compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null; then
    echo "installing PostgreSQL (Debian's postgresql) for the store's tests" >&2
    sudo=""
    if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq postgresql >/dev/null
fi
exec uv run --locked pytest "$@"
