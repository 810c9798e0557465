import shutil
from pathlib import Path

import pytest

from webapp import PROJECT_ROOT, create_app

CONTENT = PROJECT_ROOT / "content"


@pytest.fixture(scope="session")
def app(tmp_path_factory):
    """The app on the real content, with its own instance folder and a freshly built index."""
    instance = tmp_path_factory.mktemp("instance")
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(instance)})
    yield app


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


@pytest.fixture
def content_copy(tmp_path):
    """A private copy of the real content folder, for tests that change or break it."""
    target = tmp_path / "content"
    shutil.copytree(CONTENT, target)
    return target


def pytest_collection_modifyitems(config, items):
    # Browser tests are slow to start: run them last.
    items.sort(key=lambda item: 1 if item.get_closest_marker("browser") else 0)
