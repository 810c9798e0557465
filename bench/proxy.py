"""The production setup measured: nginx in front of gunicorn against gunicorn alone (run: python bench/proxy.py).

Starts gunicorn with deploy/gunicorn.conf.py (2 sync workers) on a free loopback port and Debian's
nginx in the foreground on another, its configuration rendered from deploy/nginx-site.conf.j2
(1 nginx worker, files under a temporary prefix). Then:

- throughput: wrk (-t2 -c16, BENCH_DURATION or --duration seconds) on /healthz, a rule page
  asked gzipped, the same page revalidated (If-None-Match, answered 304) and a fingerprinted
  stylesheet asked gzipped, each straight to gunicorn and through nginx;
- slow clients: /healthz latency while two connections sit with their headers unfinished,
  through nginx and straight to gunicorn (which gets --slow-timeout seconds to answer);
- the largest request: the 64 KB path-combat POST (32,700 defenders) and the largest allowed
  path combat (30 defenders with 5 items each), timed from the client, both ways;
- sizes: the rule page plain, gzipped and as a 304.

Other processes on the machine lower every figure: the script first waits (up to --wait-quiet
seconds) for a quiet machine. Both servers are stopped at the end, also on an error or Ctrl-C.
"""
from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import socket
import statistics
import sys
import tempfile
import time

BENCH = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(BENCH)
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "deploy"))
sys.path.insert(0, BENCH)

import render  # noqa: E402  (deploy/render.py)
from webapp.engines.wotr_cards import MAX_CARDS, MAX_ITEMS  # noqa: E402
from load import (DURATION, RULE_PAGE, Gunicorn, free_port, gunicorn_command, machine_line, run_wrk,  # noqa: E402
                  stop_on_sigterm, wait_for_quiet, wrk_path)

GZIP = "Accept-Encoding: gzip"
SAMPLES = 20  # timed requests per latency figure


class DeployedGunicorn(Gunicorn):
    """gunicorn as deploy/redbook.service runs it: the settings of deploy/gunicorn.conf.py."""

    def command(self):
        app = f"webapp:create_app({{'INSTANCE_PATH': {self.instance_path!r}}})"
        return gunicorn_command() + ["-c", os.path.join(ROOT, "deploy", "gunicorn.conf.py"),
                                     "--workers", str(self.workers), "--bind", f"127.0.0.1:{self.port}",
                                     "--error-logfile", self.log_path, app]


def request(port, path, headers=None, method="GET", body=None, timeout=10):
    """(status, headers, body, milliseconds) of one request on a new connection."""
    start = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        data = response.read()
        return response.status, response.headers, data, (time.perf_counter() - start) * 1000
    finally:
        connection.close()


def timed(port, path, samples=SAMPLES, **kwargs):
    """(statuses, median ms, max ms) over `samples` requests."""
    runs = [request(port, path, **kwargs) for _ in range(samples)]
    times = [r[3] for r in runs]
    return sorted({r[0] for r in runs}), statistics.median(times), max(times)


def slow_header_connections(port, count=2):
    connections = []
    for _ in range(count):
        connection = socket.create_connection(("127.0.0.1", port))
        connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        connections.append(connection)
    time.sleep(0.2)
    return connections


def healthz_with_slow_clients(port, timeout):
    """A description of /healthz latency with two slow-header connections open."""
    slow = slow_header_connections(port)
    try:
        statuses, median, worst = timed(port, "/healthz", timeout=timeout)
        return f"status {','.join(map(str, statuses))}, median {median:.2f} ms, max {worst:.2f} ms over {SAMPLES}"
    except (socket.timeout, TimeoutError):
        return f"no answer within {timeout:g} s (both sync workers are held)"
    finally:
        for connection in slow:
            connection.close()


@contextlib.contextmanager
def behind_nginx(folder, workers):
    """The deployed gunicorn (``workers`` sync workers) and nginx in front of it, both under ``folder``:
    (the gunicorn server, nginx's port) while in use, both stopped after."""
    server = DeployedGunicorn(os.path.join(folder, "instance"), workers=workers)
    nginx = None
    try:
        server.start()
        server.wait_ready()
        port = free_port()
        site = render.site_config(server_name="127.0.0.1", listen=f"127.0.0.1:{port}",
                                  upstream=f"127.0.0.1:{server.port}")
        prefix = os.path.join(folder, "nginx")
        nginx = render.start_nginx(render.standalone_config(site, prefix), prefix, port)
        yield server, port
    finally:
        if nginx is not None:
            nginx.terminate()
            nginx.wait(timeout=10)
        server.stop()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=int, default=DURATION, help="wrk seconds per endpoint and server")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--slow-timeout", type=float, default=3.0,
                        help="seconds gunicorn alone gets to answer /healthz with slow clients open")
    parser.add_argument("--wait-quiet", type=int, default=120, metavar="SECONDS")
    args = parser.parse_args(argv)
    stop_on_sigterm()
    wrk_path()
    quiet = wait_for_quiet(args.wait_quiet) if args.wait_quiet else None

    with tempfile.TemporaryDirectory(prefix="redbook-bench-proxy-") as folder, \
            behind_nginx(folder, args.workers) as (server, port):
        ports = {"gunicorn alone": server.port, "through nginx": port}

        home = request(server.port, "/")[2].decode()
        stylesheet = home.split('href="/static/style.css?v=', 1)[1].split('"', 1)[0]
        etag = request(server.port, RULE_PAGE)[1]["ETag"]
        endpoints = [
            ("/healthz", "/healthz", ()),
            ("rule page, gzip", RULE_PAGE, (GZIP,)),
            ("rule page, 304", RULE_PAGE, (GZIP, f"If-None-Match: {etag}")),
            ("style.css?v=, gzip", f"/static/style.css?v={stylesheet}", (GZIP,)),
        ]
        rows = []
        for name, path, headers in endpoints:
            figures = {}
            for way, target in ports.items():
                run_wrk(f"http://127.0.0.1:{target}", [path], 1, headers=headers)  # warm-up
                figures[way] = run_wrk(f"http://127.0.0.1:{target}", [path], args.duration, headers=headers)
            rows.append((name, figures))

        slow = {way: healthz_with_slow_clients(target, args.slow_timeout) for way, target in ports.items()}
        # let gunicorn's workers drop the closed slow connections before the next figures
        server.wait_ready(timeout=60)

        big = json.dumps({"shadow_attack_icons": 99, "path_defence": 0, "defenders": [0] * 32_700},
                         separators=(",", ":")).encode()
        largest = json.dumps({"shadow_attack_icons": 99, "path_defence": 0, "order": "fewest-losses",
                              "defenders": [{"defence": 0, "items": [0] * MAX_ITEMS}] * MAX_CARDS}).encode()
        posts = {}
        for name, body in (("64 KB POST (32,700 defenders)", big),
                           (f"largest allowed ({MAX_CARDS} defenders)", largest)):
            for way, target in ports.items():
                posts[name, way] = timed(target, "/api/wotr-cards/path-combat", samples=5, method="POST",
                                         body=body, headers={"Content-Type": "application/json"})
        sizes = {
            "plain": len(request(server.port, RULE_PAGE)[2]),
            "gzip": len(request(server.port, RULE_PAGE, {"Accept-Encoding": "gzip"})[2]),
            "304": len(request(server.port, RULE_PAGE, {"If-None-Match": etag})[2]),
        }

    print(f"Production setup: gunicorn ({args.workers} sync workers, deploy/gunicorn.conf.py) alone and behind "
          f"nginx (deploy/nginx-site.conf.j2, 1 worker); wrk -t2 -c16 -d{args.duration}s per endpoint and way")
    print(f"  {machine_line()}" + (f"; other processes at start {quiet:.2f} cores" if quiet is not None else ""))
    header = (f"{'endpoint':22} {'gunicorn req/s':>14} {'p50 ms':>7} {'p99 ms':>7} {'nginx req/s':>12} "
              f"{'p50 ms':>7} {'p99 ms':>7} {'nginx/gunicorn':>14} {'errors':>6} {'non-2xx/3xx':>11}")
    print(header)
    print("-" * len(header))
    for name, figures in rows:
        alone, proxied = figures["gunicorn alone"], figures["through nginx"]
        errors = alone["errors"] + proxied["errors"]
        bad = alone["status_errors"] + proxied["status_errors"]
        print(f"{name:22} {alone['rps']:14.1f} {alone['p50_us'] / 1000:7.2f} {alone['p99_us'] / 1000:7.2f} "
              f"{proxied['rps']:12.1f} {proxied['p50_us'] / 1000:7.2f} {proxied['p99_us'] / 1000:7.2f} "
              f"{proxied['rps'] / alone['rps']:14.1%} {errors:6} {bad:11}")
    print()
    print("/healthz with two slow-header connections open:")
    for way, line in slow.items():
        print(f"  {way:15} {line}")
    print()
    print(f"POST /api/wotr-cards/path-combat, 5 requests each:")
    for (name, way), (statuses, median, worst) in posts.items():
        print(f"  {name:32} {way:15} status {','.join(map(str, statuses))}, median {median:.2f} ms, max {worst:.2f} ms")
    print()
    print(f"rule page {RULE_PAGE}: {sizes['plain']:,} bytes plain, {sizes['gzip']:,} gzipped, "
          f"{sizes['304']} in a 304 body")


if __name__ == "__main__":
    main()
