"""Where the app's files are and the settings it starts with."""
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
    }
