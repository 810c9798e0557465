#!/usr/bin/env bash
# Runs every Red Book benchmark and prints its tables.
#
#   bash bench/run.sh           the full run (about 10 minutes on 2 cores; the soak takes the longest)
#   bash bench/run.sh --quick   a short smoke run of every benchmark (about 3 minutes)
#
# From a fresh clone it creates .venv, installs the project with its `serve` extra (gunicorn)
# and, if wrk or nginx is missing, installs Debian's package (apt-get, as root or through sudo).
# Knobs: BENCH_DURATION (seconds per endpoint in load.py, default 10), SOAK_REQUESTS (default
# 100000). Exits non-zero if a benchmark fails to run or the soak finds an error.
set -uo pipefail

cd "$(dirname "$0")/.."
PY=.venv/bin/python

QUICK=0
if [ "${1:-}" = "--quick" ]; then
    QUICK=1
fi

if [ ! -x "$PY" ]; then
    echo "creating .venv"
    python3 -m venv .venv || exit 1
    .venv/bin/pip install -q -e '.[serve]' || exit 1
fi
if ! "$PY" -c 'import flask, flask_compress, whoosh, yaml, markdown' 2>/dev/null; then
    .venv/bin/pip install -q -e . || exit 1
fi
if ! "$PY" -c 'import gunicorn' 2>/dev/null; then
    echo "installing gunicorn (the project's serve extra)"
    .venv/bin/pip install -q 'gunicorn>=22' || exit 1
fi
if ! command -v wrk >/dev/null 2>&1; then
    echo "installing wrk"
    if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get update -qq && $SUDO apt-get install -y -qq wrk >/dev/null || exit 1
fi
if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then
    echo "installing nginx (Debian's, for the production setup benchmark)"
    if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get update -qq && $SUDO apt-get install -y -qq nginx >/dev/null || exit 1
fi

if [ "$QUICK" = 1 ]; then
    export BENCH_DURATION="${BENCH_DURATION:-3}"
    export SOAK_REQUESTS="${SOAK_REQUESTS:-5000}"
    LATENCY_ARGS=(--repetitions 1 --builds 2)
    STARTUP_ARGS=(--starts 2 --load-seconds 2)
    LOAD_ARGS=(--warmup 1)
    PAGE_CACHE_ARGS=(--requests 50)
    EDGE_ARGS=(--repetitions 1)
    PROXY_ARGS=(--wait-quiet 30)
    BATTLE_ARGS=(--quick)
    SLOWEST_ARGS=(--tries 60)
    PAUSES_ARGS=(--requests 1000 --wait-quiet 30)
    ABUSE_ARGS=(--seconds 5 --wait-quiet 30)
else
    LATENCY_ARGS=()
    STARTUP_ARGS=()
    LOAD_ARGS=()
    PAGE_CACHE_ARGS=()
    EDGE_ARGS=()
    PROXY_ARGS=()
    BATTLE_ARGS=()
    SLOWEST_ARGS=()
    PAUSES_ARGS=()
    ABUSE_ARGS=()
fi

echo "Red Book benchmarks, $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
echo "machine: nproc $(nproc); $(uname -srm); $("$PY" --version); gunicorn $("$PY" -c 'import gunicorn; print(gunicorn.__version__)'); $(wrk --version 2>&1 | head -1 | cut -d' ' -f1-2)"
free -h
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
if git rev-parse --short HEAD >/dev/null 2>&1; then
    echo "commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- webapp content templates 2>/dev/null || echo ' with local changes')"
fi

status=0
run() {
    echo
    echo "================================================================ $1"
    shift
    "$PY" "$@" || { echo "!! $* exited with $?"; status=1; }
}

run "queries"         bench/queries.py --sample 12
run "search quality"  bench/search_quality.py
run "search latency"  bench/search_latency.py "${LATENCY_ARGS[@]}"
run "hostile search"  bench/search_edge_cases.py "${EDGE_ARGS[@]}"
run "page cache"      bench/page_cache.py "${PAGE_CACHE_ARGS[@]}"
run "start-up"        bench/startup.py "${STARTUP_ARGS[@]}"
run "load"            bench/load.py "${LOAD_ARGS[@]}"
run "soak"            bench/soak.py
run "battle engine"   bench/wotr_battle.py "${BATTLE_ARGS[@]}"
run "slowest inputs"  bench/slowest_inputs.py "${SLOWEST_ARGS[@]}"
run "battle load"     bench/battle_load.py
run "pauses"          bench/pauses.py "${PAUSES_ARGS[@]}"
run "production setup" bench/proxy.py "${PROXY_ARGS[@]}"
if command -v npm >/dev/null 2>&1; then  # the offline bundle needs npm to build (docs/offline.md)
    .venv/bin/redbook offline-build >/dev/null && run "offline bundle" bench/offline.py
else
    echo; echo "================================================================ offline bundle"
    echo "skipped: npm is not installed, so the offline bundle cannot be built"
fi
run "abusive clients" bench/abuse.py "${ABUSE_ARGS[@]}"
exit $status
