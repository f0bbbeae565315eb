#!/usr/bin/env bash
# The README's first command: finds or installs uv (scripts/uv.sh: pipx, pip where the
# system allows it, or a virtual environment of its own on a Debian 12 or Ubuntu 24.04
# whose Python is EXTERNALLY-MANAGED), then `uv run cherki serve` with any arguments given.
set -euo pipefail
cd "$(dirname "$0")/.."
uv="$(bash scripts/uv.sh)"
exec "$uv" run cherki serve "$@"
