"""Start-up time and worker memory under gunicorn (run: python bench/startup.py).

Start-up: the time from starting `gunicorn 'webapp:create_app(...)'` (2 sync workers, loopback,
instance folder in a temporary directory) to the first 200 answer from /healthz, polled every
10 ms. Measured with no index (a new, empty instance folder: the first worker builds the
index while the other waits on the lock) and with an existing index (the same folder started
again, so create_app only checks the index stamp). Several starts each; median, best, worst.

Memory: after the last start the server is put under load with wrk (the search API cycling
through the distinct queries of bench/queries.py, then the search page, a rule page and the
10 v 10 battle); then VmHWM (peak resident set) and VmRSS of the master and of each worker are
read from /proc/<pid>/status.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "bench"))

from load import (BATTLE_10_V_10, RULE_PAGE, WORKERS, Gunicorn, machine_line, proc_status_kb,  # noqa: E402
                  run_wrk, split_queries, stop_on_sigterm, wait_for_quiet, wrk_path)

STARTS = 5
LOAD_SECONDS = 5  # per endpoint, for the memory reading


def start_once(instance, workers):
    """Seconds from starting gunicorn to the first /healthz answer; the server is stopped again."""
    server = Gunicorn(instance, workers=workers)
    try:
        server.start()
        return server.wait_ready()
    finally:
        server.stop()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=STARTS, help="starts per case (default %(default)s)")
    parser.add_argument("--workers", type=int, default=WORKERS)
    parser.add_argument("--load-seconds", type=int, default=LOAD_SECONDS, help="wrk seconds per endpoint before reading memory")
    parser.add_argument("--wait-quiet", type=int, default=120, metavar="SECONDS",
                        help="wait up to this long for other processes to leave the CPU idle (0: do not wait)")
    args = parser.parse_args(argv)
    stop_on_sigterm()
    wrk_path()
    queries, _ = split_queries()
    quiet = wait_for_quiet(args.wait_quiet) if args.wait_quiet else None

    without_index, with_index = [], []
    with tempfile.TemporaryDirectory(prefix="redbook-bench-startup-") as folder:
        for i in range(args.starts):
            instance = os.path.join(folder, f"instance-{i}")  # new and empty: no index
            without_index.append(start_once(instance, args.workers))
            with_index.append(start_once(instance, args.workers))  # the index the first start built

        # memory after a load, on the last instance folder (index present)
        server = Gunicorn(os.path.join(folder, f"instance-{args.starts - 1}"), workers=args.workers)
        try:
            server.start()
            server.wait_ready()
            workers = server.wait_workers()
            run_wrk(server.base_url, ["/healthz"], 1)  # every worker has booted and answered
            fresh = {pid: proc_status_kb(pid, "VmRSS") for pid in [server.process.pid] + workers}
            for paths in ([q.path("/api/search") for q in queries], [q.path("/search") for q in queries],
                          [RULE_PAGE], [BATTLE_10_V_10]):
                run_wrk(server.base_url, paths, args.load_seconds)
            memory = [(label, pid, fresh[pid], proc_status_kb(pid, "VmRSS"), proc_status_kb(pid, "VmHWM"))
                      for label, pid in [("master", server.process.pid)] + [(f"worker {n + 1}", p) for n, p in enumerate(workers)]]
            same_workers = server.worker_pids() == workers
        finally:
            server.stop()

    print(f"Start-up: gunicorn {args.workers} sync workers, from exec to the first /healthz answer, "
          f"{args.starts} starts each, seconds")
    print(f"  {machine_line()}" + (f"; other processes at start {quiet:.2f} cores" if quiet is not None else ""))
    header = f"{'case':34} {'median':>7} {'best':>7} {'worst':>7}"
    print(header)
    print("-" * len(header))
    for name, runs in (("no index (built at start)", without_index), ("existing index", with_index)):
        print(f"{name:34} {statistics.median(runs):7.2f} {min(runs):7.2f} {max(runs):7.2f}")
    print()
    print(f"Memory after {args.load_seconds} s of wrk on each of /api/search, /search, a rule page and the 10 v 10 battle, MiB")
    header = f"{'process':10} {'pid':>8} {'RSS booted':>10} {'RSS now':>8} {'peak (VmHWM)':>13}"
    print(header)
    print("-" * len(header))
    for label, pid, idle, now, peak in memory:
        print(f"{label:10} {pid:8} {idle / 1024:10.1f} {now / 1024:8.1f} {peak / 1024:13.1f}")
    if not same_workers:
        print("WARNING: a worker was restarted during the load; its peak is lost")


if __name__ == "__main__":
    main()
