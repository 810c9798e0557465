#!/usr/bin/env bash
# Install what the tests need (a virtualenv with the test and serve extras, Debian's Chromium for
# the browser tests, Debian's nginx for the deployment tests) and run every test.
# Usage: bash tests/run.sh [pytest arguments]
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[test,serve]'

# Debian packages the tests run, installed when missing: Chromium for the browser tests, nginx
# for the tests of the production setup in deploy/ (they run their own nginx in the foreground,
# its files under a temporary prefix).
need_debian_package() {  # package, what needs it
  if command -v "$1" >/dev/null 2>&1 || [ -x "/usr/sbin/$1" ]; then
    return
  fi
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing Debian's $1 for $2..."
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$1" >/dev/null
  else
    echo "$1 is missing: install Debian's '$1' package (as root) to run $2" >&2
    exit 1
  fi
}
need_debian_package chromium "the browser tests"
need_debian_package nginx "the deployment tests"

# The offline bundle (Pyodide from npm, and the app), for the browser tests of offline use: built
# where npm is installed, as the Quick start does; without npm those tests skip.
.venv/bin/redbook offline-build

exec .venv/bin/python -m pytest "$@"
