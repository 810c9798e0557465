"""Throughput and latency under gunicorn, driven by wrk (run: python bench/load.py).

Starts `gunicorn --preload 'webapp:create_app(...)'` with sync workers on a free loopback port
(the app, and so the in-memory search index, built once in the master and shared by the
workers it forks), waits for /healthz, then runs wrk against one endpoint at a time for a
fixed duration, 16 connections on 2 threads.
The search endpoints get a wrk Lua script that walks through distinct queries of
bench/queries.py: at least 2,400, and more if the warm-up rate shows the run would otherwise
come round to the same query again (each worker keeps a cache of recent results, and a
benchmark of repeated queries would measure that cache). Each endpoint is warmed up for a
moment first with other queries.

The table gives requests per second, p50 and p99 latency (wrk's own histogram), each rate as a
share of /healthz in the same run, and the CPU that other processes on the machine used while
each endpoint ran (a busy machine lowers every figure). gunicorn is stopped at the end, also
on an error or Ctrl-C.

This module also holds the helpers the other server benchmarks use (Gunicorn, run_wrk).
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, "bench")
sys.path.insert(0, ROOT)
sys.path.insert(0, BENCH)

from queries import build_queries  # noqa: E402

DURATION = int(os.environ.get("BENCH_DURATION", "10"))  # seconds per endpoint
WARMUP = 2  # seconds per endpoint before the measured run
WORKERS = 2  # this machine has 2 cores; sync workers, one request at a time each
CONNECTIONS = 16
THREADS = 2
QUERY_COUNT = 2400  # distinct queries the search endpoints cycle through, at least
QUERY_POOL = 12000  # more of them, for a fast machine: a run should not ask any query twice
WARMUP_QUERIES = 600  # other distinct queries, for the warm-up only
READY_TIMEOUT = 120  # seconds gunicorn may take to answer /healthz
RULE_PAGE = "/wotr/combat-round"
BATTLE_10_V_10 = ("/api/wotr/battle?attacker_regulars=6&attacker_elites=4&attacker_leadership=3"
                  "&defender_regulars=7&defender_elites=3&defender_leadership=2"
                  "&attacker_policy=strength&defender_policy=strength&terrain=field")

# (endpoint, least share of /healthz rps) and the latency goal for /api/search
RATIO_TARGETS = {"rule page": 0.60, "/api/search": 0.15}
P99_TARGETS_MS = {"/api/search": 50}

# wrk script: each thread walks the list of paths (one per line in the file named after `--`),
# starting at a different place; `done` prints one JSON line the Python side reads.
CYCLE_LUA = r"""
local paths = {}
local position = 1
local threads = {}

function setup(thread)
  thread:set("id", #threads)
  table.insert(threads, thread)
end

function init(args)
  local file = assert(io.open(args[1], "r"))
  for line in file:lines() do
    if #line > 0 then paths[#paths + 1] = line end
  end
  file:close()
  -- threads start evenly spread over the list, so none repeats another's recent requests
  position = math.floor(id * #paths / tonumber(args[2])) + 1
end

function request()
  local path = paths[position]
  position = position % #paths + 1
  return wrk.format("GET", path)
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'WRK-RESULT {"requests": %d, "duration_us": %d, "bytes": %d, ' ..
    '"connect_errors": %d, "read_errors": %d, "write_errors": %d, "status_errors": %d, "timeouts": %d, ' ..
    '"p50_us": %d, "p90_us": %d, "p99_us": %d, "max_us": %d, "mean_us": %.1f}\n',
    summary.requests, summary.duration, summary.bytes,
    e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max, latency.mean))
end
"""


# --- processes ----------------------------------------------------------------------------

def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on at the moment of asking."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _die_with_parent():
    # gunicorn gets SIGTERM if this script is killed outright, so no server outlives a run
    os.setsid()
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except OSError:
        pass


def gunicorn_command():
    """The gunicorn command of the running interpreter's environment, or None if it is missing."""
    try:
        import gunicorn  # noqa: F401
        from gunicorn import config
    except ImportError:
        return None
    command = [sys.executable, "-m", "gunicorn"]
    if any(getattr(s, "name", "") == "control_socket_disable" for s in getattr(config, "KNOWN_SETTINGS", [])):
        command.append("--no-control-socket")  # gunicorn >= 25: no shared socket in the home folder
    return command


class Gunicorn:
    """One gunicorn master with sync workers on 127.0.0.1; its log in the folder given.

    With ``preload`` (the documented way to serve) the master creates the app, and so builds the
    search index, once; the workers are forked from it and share it.
    """

    def __init__(self, instance_path, workers=WORKERS, port=None, log_path=None, preload=True):
        self.instance_path = str(instance_path)
        self.workers = workers
        self.preload = preload
        self.port = port or free_port()
        self.log_path = log_path or os.path.join(self.instance_path, "gunicorn.log")
        self.process = None
        self.started_at = None

    @property
    def base_url(self):
        return f"http://127.0.0.1:{self.port}"

    def command(self):
        base = gunicorn_command()
        if base is None:
            raise SystemExit("gunicorn is not installed in this environment: pip install -e '.[serve]'")
        app = f"webapp:create_app({{'INSTANCE_PATH': {self.instance_path!r}}})"
        return base + (["--preload"] if self.preload else []) + ["--worker-class", "sync", "--workers", str(self.workers),
                       "--bind", f"127.0.0.1:{self.port}", "--timeout", "60", "--graceful-timeout", "5",
                       "--error-logfile", self.log_path, app]

    def start(self):
        os.makedirs(self.instance_path, exist_ok=True)
        self.log = open(self.log_path, "ab")
        self.started_at = time.perf_counter()
        self.process = subprocess.Popen(self.command(), cwd=ROOT, stdout=self.log, stderr=subprocess.STDOUT,
                                        stdin=subprocess.DEVNULL, preexec_fn=_die_with_parent)
        return self

    def wait_ready(self, timeout=READY_TIMEOUT, interval=0.01, path="/healthz"):
        """Seconds from start to the first 200 from ``path``; raises if it never comes."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {self.process.returncode}:\n{self.log_tail()}")
            if get_status(self.port, path, timeout=2) == 200:
                return time.perf_counter() - self.started_at
            time.sleep(interval)
        raise RuntimeError(f"gunicorn did not answer {path} within {timeout} s:\n{self.log_tail()}")

    def worker_pids(self):
        """The pids of the master's worker processes (its children)."""
        if self.process is None:
            return []
        return sorted(pid for pid in _all_pids() if _parent_pid(pid) == self.process.pid)

    def wait_workers(self, timeout=30):
        """The worker pids once all of them are up."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pids = self.worker_pids()
            if len(pids) == self.workers:
                return pids
            time.sleep(0.05)
        raise RuntimeError(f"expected {self.workers} workers, found {self.worker_pids()}")

    def stop(self):
        if self.process is None or self.process.poll() is not None:
            return
        try:
            os.killpg(self.process.pid, signal.SIGTERM)  # its own process group: master and workers
        except ProcessLookupError:
            return
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=5)
        finally:
            self.log.close()

    def log_tail(self, lines=30):
        try:
            with open(self.log_path, errors="replace") as f:
                return "".join(f.readlines()[-lines:])
        except OSError:
            return ""

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()


def stop_on_sigterm():
    """Turn SIGTERM into SystemExit, so `finally` blocks (and the server stop) still run."""
    def handler(signum, frame):
        raise SystemExit(128 + signum)
    signal.signal(signal.SIGTERM, handler)


def get_status(port, path, timeout=5):
    """The HTTP status of GET path on 127.0.0.1:port, or None if the connection fails."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        return response.status
    except (OSError, http.client.HTTPException):
        return None
    finally:
        connection.close()


def _all_pids():
    return [int(name) for name in os.listdir("/proc") if name.isdigit()]


def _parent_pid(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return int(f.read().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


def proc_status_kb(pid, key):
    """A memory line of /proc/<pid>/status (VmRSS, VmHWM, ...) in kB, or None."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def process_cpu_seconds(pid):
    """utime + stime of a process so far, in seconds (0 if it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def machine_busy_seconds():
    """CPU seconds the whole machine has spent busy (all cores), from /proc/stat."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    user, nice, system, idle, iowait, irq, softirq, steal = (fields + [0] * 8)[:8]
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


QUIET_CORES = 0.3  # other processes using less than this much CPU: a quiet machine


def wait_for_quiet(max_wait=120, threshold=QUIET_CORES, window=2.0):
    """Wait (at most ``max_wait`` s) until other processes use under ``threshold`` cores; that level.

    Call it before starting any server: everything busy then is someone else's work.
    """
    deadline = time.monotonic() + max_wait
    while True:
        start_busy, start_own = machine_busy_seconds(), sum(os.times()[:4])
        time.sleep(window)
        level = ((machine_busy_seconds() - start_busy) - (sum(os.times()[:4]) - start_own)) / window
        if level < threshold or time.monotonic() >= deadline:
            return max(0.0, level)


class OtherCpu:
    """CPU used by processes other than this script, its children and the server, over a span."""

    def __init__(self, server_pids):
        self.server_pids = list(server_pids)

    def __enter__(self):
        self.start_wall = time.monotonic()
        self.start_busy = machine_busy_seconds()
        self.start_ours = self._ours()
        return self

    def _ours(self):
        own = os.times()
        return (own.user + own.system + own.children_user + own.children_system
                + sum(process_cpu_seconds(pid) for pid in self.server_pids))

    def __exit__(self, *exc):
        wall = time.monotonic() - self.start_wall
        other = (machine_busy_seconds() - self.start_busy) - (self._ours() - self.start_ours)
        self.cores = max(0.0, other / wall) if wall > 0 else 0.0  # in cores, 1.0 = one core busy


# --- wrk ------------------------------------------------------------------------------------

def wrk_path():
    path = shutil.which("wrk")
    if path is None:
        raise SystemExit("wrk is not installed: apt-get update && apt-get install -y wrk")
    return path


def run_wrk(base_url, paths, duration, connections=CONNECTIONS, threads=THREADS, headers=()):
    """Run wrk for ``duration`` seconds cycling through ``paths`` (sending ``headers``, each
    "Name: value"); wrk's figures as a dict."""
    assert base_url.startswith("http://127.0.0.1:"), "benchmarks only ever talk to loopback"
    with tempfile.TemporaryDirectory(prefix="redbook-wrk-") as folder:
        script = os.path.join(folder, "cycle.lua")
        listing = os.path.join(folder, "paths.txt")
        with open(script, "w") as f:
            f.write(CYCLE_LUA)
        with open(listing, "w") as f:
            f.write("\n".join(paths) + "\n")
        command = [wrk_path(), f"-t{threads}", f"-c{connections}", f"-d{duration}s", "--timeout", "10s",
                   *(flag for header in headers for flag in ("-H", header)),
                   "-s", script, base_url + paths[0], "--", listing, str(threads)]
        done = subprocess.run(command, capture_output=True, text=True, timeout=duration + 60)
    for line in done.stdout.splitlines():
        if line.startswith("WRK-RESULT "):
            result = json.loads(line[len("WRK-RESULT "):])
            result["rps"] = result["requests"] / (result["duration_us"] / 1e6)
            result["errors"] = sum(result[k] for k in ("connect_errors", "read_errors", "write_errors", "timeouts"))
            # requests that asked a path already asked in this run (the list wrapped around)
            result["repeats"] = max(0, result["requests"] - len(paths)) / max(1, result["requests"])
            return result
    raise RuntimeError(f"wrk gave no result (exit {done.returncode}):\n{done.stdout}\n{done.stderr}")


# --- the benchmark --------------------------------------------------------------------------

def endpoints(queries):
    """(name, list of request paths) for each endpoint of the table."""
    return [
        ("/healthz", ["/healthz"]),
        ("rule page", [RULE_PAGE]),
        ("/search (HTML)", [q.path("/search") for q in queries]),
        ("/api/search", [q.path("/api/search") for q in queries]),
        ("/api/wotr/battle 10v10", [BATTLE_10_V_10]),
    ]


def split_queries(count=QUERY_COUNT, warmup=WARMUP_QUERIES):
    """(measured, warm-up) queries: distinct from each other, so a warm-up fills no cache the run reads."""
    queries = build_queries(count=count + warmup)
    return queries[:count], queries[count:]


def enough_queries(pool, warmup_result, duration):
    """The first queries of ``pool``: at least QUERY_COUNT, and enough that a run of ``duration``
    seconds at the warm-up's rate (with room to spare) never asks one twice, as far as the pool allows."""
    needed = int(warmup_result["rps"] * duration * 1.5) if warmup_result else 0
    return pool[:max(QUERY_COUNT, min(needed, len(pool)))]


def machine_line():
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return (f"{time.strftime('%Y-%m-%d %H:%M:%S %Z')}, {os.cpu_count()} CPUs, {memory:.1f} GiB RAM, "
            f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=int, default=DURATION, help="seconds per endpoint (default %(default)s)")
    parser.add_argument("--warmup", type=int, default=WARMUP, help="seconds of warm-up per endpoint")
    parser.add_argument("--workers", type=int, default=WORKERS)
    parser.add_argument("--connections", type=int, default=CONNECTIONS)
    parser.add_argument("--threads", type=int, default=THREADS)
    parser.add_argument("--wait-quiet", type=int, default=120, metavar="SECONDS",
                        help="wait up to this long for other processes to leave the CPU idle (0: do not wait)")
    parser.add_argument("--retries", type=int, default=2,
                        help="runs again (keeping the quietest) when other processes used the CPU meanwhile")
    args = parser.parse_args(argv)
    stop_on_sigterm()
    wrk_path()
    pool, warmup_queries = split_queries(QUERY_POOL)
    quiet = wait_for_quiet(args.wait_quiet) if args.wait_quiet else None

    rows = []
    with tempfile.TemporaryDirectory(prefix="redbook-bench-load-") as instance:
        server = Gunicorn(instance, workers=args.workers)
        try:
            server.start()
            ready = server.wait_ready()
            pids = [server.process.pid] + server.wait_workers()
            for number, (name, warmup_paths) in enumerate(endpoints(warmup_queries)):
                if args.wait_quiet:
                    wait_for_quiet(min(args.wait_quiet, 60))
                warmed = None
                if args.warmup:
                    warmed = run_wrk(server.base_url, warmup_paths, args.warmup, args.connections, args.threads)
                paths = endpoints(enough_queries(pool, warmed, args.duration))[number][1]
                result = None
                for attempt in range(1 + args.retries):
                    # a retry starts a third of the way round, away from what the last run left in any cache
                    shift = attempt * len(paths) // 3
                    with OtherCpu(pids) as other:
                        run = run_wrk(server.base_url, paths[shift:] + paths[:shift], args.duration,
                                      args.connections, args.threads)
                    run["other_cores"] = other.cores
                    if result is None or run["other_cores"] < result["other_cores"]:
                        result = run
                    if other.cores < QUIET_CORES:
                        break
                result["attempts"] = attempt + 1
                rows.append((name, len(paths), result))
            workers_after = server.worker_pids()
        finally:
            server.stop()

    print(f"Load: gunicorn {args.workers} sync workers on 127.0.0.1, wrk -t{args.threads} -c{args.connections} "
          f"-d{args.duration}s per endpoint after {args.warmup} s warm-up; ready in {ready:.2f} s")
    print(f"  {machine_line()}" + (f"; other processes at start {quiet:.2f} cores" if quiet is not None else ""))
    header = (f"{'endpoint':24} {'paths':>5} {'requests':>8} {'req/s':>8} {'p50 ms':>7} {'p99 ms':>7} "
              f"{'vs healthz':>10} {'target':>14} {'met':>4} {'errors':>6} {'non-2xx':>7} {'repeats':>7} {'other CPU':>9}")
    print(header)
    print("-" * len(header))
    healthz_rps = rows[0][2]["rps"]
    verdicts = []
    for name, count, r in rows:
        ratio = r["rps"] / healthz_rps
        repeats = f"{r['repeats']:.0%}" if count > 1 else "-"
        target, met = "", ""
        if name in RATIO_TARGETS:
            goal = RATIO_TARGETS[name]
            target = f">= {goal:.0%} rps"
            met = "yes" if ratio >= goal else "NO"
            verdicts.append(f"{name} rps {ratio:.1%} of /healthz: {'meets' if ratio >= goal else 'MISSES'} "
                            f">= {goal:.0%}" + ("" if ratio >= goal else f" (by {goal - ratio:.1%} of /healthz)"))
        print(f"{name:24} {count:5} {r['requests']:8} {r['rps']:8.1f} {r['p50_us'] / 1000:7.2f} {r['p99_us'] / 1000:7.2f} "
              f"{ratio:10.1%} {target:>14} {met:>4} {r['errors']:6} {r['status_errors']:7} {repeats:>7} {r['other_cores']:8.2f}c"
              + (f"  (quietest of {r['attempts']} runs)" if r["attempts"] > 1 else ""))
        if name in P99_TARGETS_MS:
            goal = P99_TARGETS_MS[name]
            p99 = r["p99_us"] / 1000
            print(f"{'':24} {'':5} {'':8} {'':8} {'':7} {'':7} {'':10} {f'p99 < {goal} ms':>14} "
                  f"{'yes' if p99 < goal else 'NO':>4}")
            verdicts.append(f"{name} p99 {p99:.1f} ms: {'meets' if p99 < goal else 'MISSES'} < {goal} ms"
                            + ("" if p99 < goal else f" (by {p99 - goal:.1f} ms)"))
    print()
    for line in verdicts:
        print(line)
    print("paths: distinct request paths the endpoint cycled through; repeats: share of requests that asked "
          "a path already asked in that run (only these can come from a worker's result cache).")
    print("other CPU: cores' worth of CPU used by other processes on the machine during that run (0.00c = quiet).")
    if sorted(workers_after) != sorted(pids[1:]):
        print(f"WARNING: worker pids changed during the run ({pids[1:]} -> {workers_after}): a worker was restarted")


if __name__ == "__main__":
    main()
