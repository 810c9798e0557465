"""Write Red Book's nginx site configuration from deploy/nginx-site.conf.j2.

    .venv/bin/python deploy/render.py --server-name rules.example.org > /etc/nginx/sites-available/redbook

The static files' hashes go into the configuration (so nginx, like the app, marks a file
immutable only at its own hash): render it again and reload nginx after every update.
`standalone_config` wraps a site in a whole nginx.conf for a private nginx (tests, benchmarks).
"""
from __future__ import annotations

import argparse
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

DEPLOY = Path(__file__).resolve().parent
ROOT = DEPLOY.parent
sys.path.insert(0, str(ROOT))

from jinja2 import Environment, FileSystemLoader, StrictUndefined  # noqa: E402

from webapp.caching import static_fingerprints  # noqa: E402
from webapp.settings import default_config  # noqa: E402

TEMPLATE = "nginx-site.conf.j2"
# Per client address. The calculators' rate is sized by cost: a calculation takes at most 20 ms of CPU
# (the battle bench's goal), a page with three plans three of them and its drawing, about 65 ms. 8
# addresses at 1 request a second then take 8 x 65 = 520 ms of CPU a second: a quarter of what 2
# workers have, so one of them is nearly always free for /healthz and everyone else.
LIMITS = {
    "calculator_rate": "1r/s", "calculator_burst": 10, "calculator_delay": 1,
    "search_rate": "10r/s", "search_burst": 60,
    "connections": 32,  # requests in progress at once (headers read), whatever else they do
    "header_timeout": "10s",  # the request line and headers, in all
    "body_timeout": "10s",  # between two reads of a body
    "retry_after": 1,  # seconds, in a 429's Retry-After: one request's worth at the rates above
    "max_body": default_config()["MAX_CONTENT_LENGTH"],  # bytes, as the app takes
}


def site_config(server_name="_", listen="80", upstream="127.0.0.1:8000", static_root=ROOT / "static", **limits):
    """The site configuration (nginx's http-block part) as text."""
    environment = Environment(loader=FileSystemLoader(DEPLOY), undefined=StrictUndefined, keep_trailing_newline=True)
    static_hashes = sorted(static_fingerprints(static_root).items())
    return environment.get_template(TEMPLATE).render(
        server_name=server_name, listen=listen, upstream=upstream, static_root=Path(static_root).resolve(),
        static_hashes=static_hashes, **{**LIMITS, **limits})


def standalone_config(site, prefix):
    """A whole nginx.conf around `site` for an nginx run in the foreground with every file under `prefix`."""
    prefix = Path(prefix)
    user = "" if os.geteuid() else "user root;\n"  # as root, workers would drop to nobody, who cannot read prefix
    temp = "\n".join(f"    {kind}_temp_path {prefix / kind};" for kind in
                     ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    return f"""{user}worker_processes 1;
daemon off;
pid {prefix / 'nginx.pid'};
error_log {prefix / 'error.log'} warn;
events {{
    worker_connections 768;  # Debian's nginx.conf: 768 a worker
}}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    sendfile on;
    access_log off;
{temp}
{site}
}}
"""


def start_nginx(config, prefix, port, timeout=10):
    """Run nginx in the foreground on `config` (from standalone_config) once it listens on `port`.

    Returns the process; the caller stops it (terminate(), then wait()).
    """
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    prefix = Path(prefix)
    prefix.mkdir(parents=True, exist_ok=True)
    (prefix / "nginx.conf").write_text(config)
    with open(prefix / "stderr.log", "wb") as stderr:
        process = subprocess.Popen([nginx, "-p", str(prefix), "-c", str(prefix / "nginx.conf"),
                                    "-e", str(prefix / "error.log")],
                                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=stderr)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            logs = [prefix / "stderr.log", prefix / "error.log"]
            problems = "".join(log.read_text() for log in logs if log.exists())
            raise RuntimeError(f"nginx exited with {process.returncode}: {problems}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return process
        except OSError:
            time.sleep(0.02)
    process.terminate()
    raise RuntimeError(f"nginx did not listen on port {port} within {timeout} s")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server-name", default="_", help="the site's host name(s), as nginx's server_name")
    parser.add_argument("--listen", default="80", help="nginx's listen argument (default %(default)s)")
    parser.add_argument("--upstream", default="127.0.0.1:8000", help="gunicorn's address (default %(default)s)")
    parser.add_argument("--static-root", default=str(ROOT / "static"), help="the project's static folder")
    args = parser.parse_args(argv)
    sys.stdout.write(site_config(args.server_name, args.listen, args.upstream, args.static_root))


if __name__ == "__main__":
    main()
