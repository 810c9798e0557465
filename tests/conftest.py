import shutil
from pathlib import Path

import pytest

from webapp import PROJECT_ROOT, create_app, default_config
from webapp.state import state_of


@pytest.fixture(scope="session")
def app(tmp_path_factory):
    """The app on the real content (its search index built in memory)."""
    instance = tmp_path_factory.mktemp("instance")
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(instance)})
    yield app


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


@pytest.fixture(scope="session")
def content_dir():
    """The real content folder."""
    return Path(default_config()["CONTENT_DIR"])


@pytest.fixture(scope="session")
def library(app):
    """The real content, as the app loaded it."""
    return state_of(app).library


@pytest.fixture(scope="session")
def calculators(app):
    """The app's calculators by id, bound to the real content."""
    return state_of(app).calculators


@pytest.fixture(scope="session")
def dice(library):
    """The Fate of the Fellowship face counts in content/fotf/data/dice.yaml, as the app loaded them."""
    return library.data["fotf"]["dice"]


@pytest.fixture
def content_copy(tmp_path, content_dir):
    """A private copy of the real content folder, for tests that change or break it."""
    target = tmp_path / "content"
    shutil.copytree(content_dir, target)
    return target


SLOW_MARKERS = ("browser", "deploy", "slow")


def pytest_collection_modifyitems(config, items):
    # Browser tests are slow to start: run them last. Every test none of SLOW_MARKERS marks is fast.
    for item in items:
        if not any(item.get_closest_marker(name) for name in SLOW_MARKERS):
            item.add_marker(pytest.mark.fast)
    items.sort(key=lambda item: 1 if item.get_closest_marker("browser") else 0)


CHROMIUM = "/usr/bin/chromium"
OUTPUT = PROJECT_ROOT / "test-output"


@pytest.fixture(scope="session")
def live_server(app):
    """The app served on a free loopback port for the browser tests: its base URL."""
    import threading

    from werkzeug.serving import make_server

    def closing_when_dropped(environ, start_response):
        # Werkzeug's development server leaves a response unclosed when the browser drops the
        # connection mid-file (a page navigated away while its icon loaded): closing it here
        # keeps that from surfacing as an unclosed-file warning in whichever test runs next.
        response = app(environ, start_response)
        try:
            yield from response
        finally:
            if hasattr(response, "close"):
                response.close()

    server = make_server("127.0.0.1", 0, closing_when_dropped, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join()


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium, headless, driven by Playwright (never a downloaded browser)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: bash tests/run.sh installs Debian's chromium")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"],
        )
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    """A fresh browser context (empty storage) at phone size."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def phone(browser):
    """A fresh browser (nothing remembered, no service worker) at phone size; a script error on the page fails the test."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                                  has_touch=True, service_workers="block")
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    context.close()
    assert errors == [], errors


@pytest.fixture(scope="session")
def screenshots():
    folder = OUTPUT / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


# A calculator form's controls set to some parameters, as a player would tick and type them (the form
# opens empty): each box of a name takes the next value given for it, a choice is ticked by its value.
FILL_FORM = """(pairs) => {
    const form = document.getElementById('calc-form'), seen = {};
    for (const [name, value] of pairs) {
        const controls = [...form.querySelectorAll(`[name="${name}"]`)];
        if (!controls.length) continue;
        if (controls[0].type === 'radio' || controls[0].type === 'checkbox') {
            controls.forEach((control) => { if (control.value === value) control.checked = true; });
        } else {
            const index = seen[name] || 0;
            seen[name] = index + 1;
            if (controls[index]) controls[index].value = value;
        }
    }
    form.dispatchEvent(new Event('change'));
}"""


@pytest.fixture
def fill_examples(calculators):
    """fill_examples(page, calc_id, prefix=""): type the calculator's examples into its empty form (the
    boxes show them greyed; nothing is calculated until Calculate)."""
    def fill(page, calc_id, prefix=""):
        page.evaluate(FILL_FORM, [[prefix + key, value] for key, value in calculators[calc_id].form_query()])
    return fill
