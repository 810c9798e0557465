# gunicorn settings for Red Book behind nginx (deploy/redbook.service runs it with these).
#   gunicorn -c deploy/gunicorn.conf.py 'webapp:create_app()'
# Command-line options override these (the tests pass their own --bind).
import os

bind = "127.0.0.1:8000"  # loopback only: nginx is the one that faces clients
# sync workers answer one request at a time and the work is CPU-bound: one per core. nginx reads
# each request whole and buffers each answer, so a worker never waits on a slow client.
worker_class = "sync"
workers = os.cpu_count() or 2
# the master creates the app once (content loaded and checked, search index built in memory)
# and forks the workers from it, so they share one build and start answering at once
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
