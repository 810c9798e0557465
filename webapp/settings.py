"""Where the app's files are and the settings it starts with."""
import sys
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def data_folder(name):
    """templates/, static/ or content/: beside the package in a checkout, inside it (webapp/share/,
    see pyproject.toml) once installed from a wheel."""
    installed = Path(__file__).resolve().parent / "share" / name
    return installed if installed.is_dir() else PROJECT_ROOT / name


def default_config():
    """Settings; FLASK_* environment variables (JSON values, e.g. FLASK_TRUSTED_HOSTS='["rules.example.org"]')
    override them, and create_app's config overrides both."""
    return {
        # Behind a reverse proxy: {"x_for": 1, "x_proto": 1} trusts one proxy's X-Forwarded-For
        # and X-Forwarded-Proto (werkzeug's ProxyFix arguments). None: no proxy headers are read.
        "PROXY_FIX": None,
        "CONTENT_DIR": str(data_folder("content")),
        "MAX_CONTENT_LENGTH": 64 * 1024,
        # The content's YAML parsed ahead of time (webapp/content/parsed.py), or None to parse it as
        # it is read: the offline bundle's worker reads the table its build made.
        "CONTENT_PARSED": None,
        # A folder of templates compiled ahead of time (Jinja's bytecode cache, checked against each
        # template's source), or None: the offline bundle carries its templates compiled.
        "TEMPLATE_BYTECODE_DIR": None,
        # Build the search index when the app is created (False: when first asked; the offline
        # bundle's worker answers a calculator before it has built the index).
        "SEARCH_INDEX_AT_START": True,
        # A file holding the search index saved ahead of time (SearchIndex.saved), read instead of
        # building it while it was saved by this very build; None builds it. The offline bundle's
        # worker reads the one its build saved (building it there takes seconds).
        "SEARCH_INDEX_SAVED": None,
        # Compress answers (zstd, brotli, gzip; see caching.py). Off in the offline bundle's worker,
        # whose answers never cross a network.
        "COMPRESS_RESPONSES": True,
        # Where `redbook offline-build` put the offline bundle (docs/offline.md): beside the Python
        # environment the app runs from, so a read-only checkout serves it. None offers none.
        "OFFLINE_BUNDLE_DIR": str(default_bundle_dir()),
    }


def default_bundle_dir():
    return Path(sys.prefix) / "share" / "redbook" / "offline"
