# gunicorn settings for Red Book behind nginx (deploy/redbook.service runs it with these).
#   gunicorn -c deploy/gunicorn.conf.py 'webapp:create_app()'
# Command-line options override these (the tests pass their own --bind).
import os
import signal

bind = "127.0.0.1:8000"  # loopback only: nginx is the one that faces clients
# sync workers answer one request at a time and the work is CPU-bound: one per core. nginx reads
# each request whole and buffers each answer, so a worker never waits on a slow client.
worker_class = "sync"
workers = os.cpu_count() or 2
# the master creates the app once (content loaded and checked, search index built in memory, templates
# compiled), warms and freezes it (on_starting below) and forks the workers from it, so they share one
# build and start answering at once
preload_app = True
timeout = 30
graceful_timeout = 10
# the request line and headers are as small as nginx allows them
limit_request_line = 4094
limit_request_fields = 50
limit_request_field_size = 8190
# X-Forwarded-Proto and X-Forwarded-For are believed from nginx on this machine only
forwarded_allow_ips = "127.0.0.1,::1"
accesslog = None  # nginx keeps the access log
errorlog = "-"
control_socket_disable = True  # gunicorn >= 25: no control socket in the service user's home


def on_starting(server):
    """The master has created the app: warm it and freeze it for the collector before any worker forks
    (webapp/serving.py; `redbook serve` does the same)."""
    if server.cfg.preload_app:
        from webapp.serving import ready_to_serve

        server.log.info(ready_to_serve(server.app.wsgi()))


def when_ready(server):
    """A reload (USR2, the unit's ExecReload) starts a new master from the code, content and templates on
    disk. Once it has built and warmed the app it takes over: it tells systemd it is the main process now
    and stops the old master, whose workers finish the requests they hold. A new master that cannot
    build the app exits instead, and the old one goes on serving: every answer comes whole from one
    build or the other."""
    if server.master_pid:  # set only in a master started by USR2: the old master's pid
        from gunicorn import systemd

        systemd.sd_notify(f"MAINPID={os.getpid()}\nREADY=1", server.log)
        os.kill(server.master_pid, signal.SIGTERM)
