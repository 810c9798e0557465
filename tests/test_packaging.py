"""A wheel (what `pip install .` installs) holds the code and the folders the app reads, and the app
starts from it alone: rule pages, static files, search and a calculator answer."""
import shutil
import subprocess
import sys
import zipfile

import pytest

from webapp import PROJECT_ROOT

pytestmark = pytest.mark.slow

# What a wheel is built from; everything else in the checkout (tests, bench, deploy) stays out.
SOURCES = ("pyproject.toml", "README.md", "webapp", "templates", "static", "content")

# Run from the unpacked wheel, never the checkout: the checks print what failed, or nothing.
STARTS = """
import sys
sys.path.insert(0, sys.argv[1])
import webapp
from webapp import create_app
assert webapp.__file__.startswith(sys.argv[1]), webapp.__file__
app = create_app({"INSTANCE_PATH": sys.argv[2]})
assert app.template_folder.startswith(sys.argv[1]) and app.static_folder.startswith(sys.argv[1])
client = app.test_client()
for path in ("/", "/wotr/combat-round", "/meq/turn", "/print", "/sw.js", "/api/wotr/roll?strength=3&hit=5"):
    response = client.get(path)
    assert response.status_code == 200, (path, response.status_code)
    response.close()
with client.get("/static/style.css") as response:
    assert response.status_code == 200 and b"body" in response.data
assert client.get("/api/search", query_string={"q": "leader re-roll"}).get_json()["total"] > 0
"""


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    source = tmp_path_factory.mktemp("source")
    for name in SOURCES:
        copy = shutil.copytree if (PROJECT_ROOT / name).is_dir() else shutil.copy
        copy(PROJECT_ROOT / name, source / name)
    out = tmp_path_factory.mktemp("wheel")
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "--disable-pip-version-check",
                            "--wheel-dir", str(out), str(source)], capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr[-2000:]
    return next(out.glob("redbook-*.whl"))


def test_the_wheel_holds_every_template_static_file_and_content_file(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for folder in ("templates", "static", "content"):
        wanted = {f"webapp/share/{folder}/{path.relative_to(PROJECT_ROOT / folder).as_posix()}"
                  for path in (PROJECT_ROOT / folder).rglob("*") if path.is_file() and path.name != "README.md"}
        assert wanted and wanted <= names, sorted(wanted - names)[:10]
    assert "webapp/content/__init__.py" in names and "webapp/engines/meccg/__init__.py" in names
    assert not any(name.startswith(("tests/", "bench/", "deploy/")) for name in names)


def test_the_app_starts_from_the_installed_wheel_alone(wheel, tmp_path):
    installed = tmp_path / "site-packages"
    zipfile.ZipFile(wheel).extractall(installed)
    started = subprocess.run([sys.executable, "-c", STARTS, str(installed), str(tmp_path / "instance")],
                             cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert started.returncode == 0, started.stderr[-2000:]
