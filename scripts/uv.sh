#!/usr/bin/env bash
# Finds uv, or installs it the ways uv's own documentation gives
# (https://docs.astral.sh/uv/getting-started/installation/), and prints its path on stdout.
# Sourced or run by scripts/serve.sh and scripts/test.sh (the README's two commands).
#
# In order: a uv already on the PATH (or in ~/.local/bin, where pipx and uv's installer put
# it); pipx (`pipx install uv`; Debian 12 and Ubuntu 24.04: `sudo apt install pipx`);
# `python3 -m pip install --user uv` where pip may install into the Python (not on a system
# whose Python is marked EXTERNALLY-MANAGED, PEP 668: Debian 12, Ubuntu 23.04+); pip inside
# a virtual environment of its own (`python3 -m venv`, uv's "pip install uv" into a
# virtual environment) in ~/.local/share/cherki/uv; uv's standalone installer (curl or wget
# from astral.sh). When none can, one line says what to install, and it exits 1.
set -euo pipefail
found() { echo "$1"; exit 0; }
if command -v uv >/dev/null 2>&1; then found "$(command -v uv)"; fi
for candidate in "$HOME/.local/bin/uv" "$HOME/.cargo/bin/uv" "${XDG_DATA_HOME:-$HOME/.local/share}/cherki/uv/bin/uv"; do
    if [ -x "$candidate" ]; then found "$candidate"; fi
done
if command -v pipx >/dev/null 2>&1; then
    echo "installing uv with pipx (pipx install uv)" >&2
    if pipx install uv >&2 && [ -x "$HOME/.local/bin/uv" ]; then found "$HOME/.local/bin/uv"; fi
fi
python=""
for candidate in python3 python; do
    if command -v "$candidate" >/dev/null 2>&1; then python="$(command -v "$candidate")"; break; fi
done
if [ -n "$python" ]; then
    managed=$("$python" -c 'import os, sys, sysconfig
inside = sys.prefix != sys.base_prefix
print("no" if inside else ("yes" if os.path.exists(os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED")) else "no"))' 2>/dev/null || echo unknown)
    if [ "$managed" = no ] && "$python" -m pip --version >/dev/null 2>&1; then
        echo "installing uv with pip ($python -m pip install --user uv)" >&2
        inside=$("$python" -c 'import sys; print(sys.prefix != sys.base_prefix)')
        if [ "$inside" = True ]; then user=""; else user="--user"; fi
        if "$python" -m pip install -q $user uv >&2; then
            bin=$("$python" -c 'import site, sys, sysconfig; print(sysconfig.get_path("scripts") if sys.prefix != sys.base_prefix else site.getuserbase() + "/bin")')
            if [ -x "$bin/uv" ]; then found "$bin/uv"; fi
            if command -v uv >/dev/null 2>&1; then found "$(command -v uv)"; fi
        fi
    fi
    venv="${XDG_DATA_HOME:-$HOME/.local/share}/cherki/uv"
    echo "installing uv into a virtual environment of its own ($venv), as this Python is managed by the system" >&2
    if "$python" -m venv "$venv" >&2 2>/dev/null && "$venv/bin/python" -m pip install -q uv >&2; then
        found "$venv/bin/uv"
    fi
    rm -rf "$venv"
fi
if command -v curl >/dev/null 2>&1 && curl -LsSf https://astral.sh/uv/install.sh 2>/dev/null | sh >&2; then
    if [ -x "$HOME/.local/bin/uv" ]; then found "$HOME/.local/bin/uv"; fi
elif command -v wget >/dev/null 2>&1 && wget -qO- https://astral.sh/uv/install.sh 2>/dev/null | sh >&2; then
    if [ -x "$HOME/.local/bin/uv" ]; then found "$HOME/.local/bin/uv"; fi
fi
echo "cherki needs uv and could not install it: install pipx (Debian, Ubuntu: sudo apt install pipx; then pipx install uv) or see https://docs.astral.sh/uv/getting-started/installation/" >&2
exit 1
