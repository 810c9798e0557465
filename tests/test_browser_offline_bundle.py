"""Red Book offline in headless Chromium, with the offline bundle: switched on once (one download
for the module), then the browser offline. Every calculator's example inputs answer with the
page the server gives, plans side by side too; 50 player questions find the server's top ten; the
search box and page answer; a page never visited opens; an older version's bundle is dropped;
removing it frees the space. The bundle needs npm to build: these tests skip only without it
(bash tests/run.sh builds it)."""
import json
import re
import shutil
import threading
import urllib.request
from pathlib import Path
from urllib.parse import urlencode

import pytest
import yaml
from playwright.sync_api import expect

from webapp import PROJECT_ROOT, create_app
from webapp.calculators import CALCULATORS
from webapp.state import state_of

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
QUESTIONS_PER_GAME = 10  # 50 questions: the first ten of each game's first batch


@pytest.fixture(scope="module")
def bundle_server(app, live_server, tmp_path_factory):
    """The app serving a bundle built from this checkout: the installed one when it is this build's
    (tests/run.sh builds it), else one built now. (base URL, app)."""
    if shutil.which("npm") is None or shutil.which("node") is None:
        pytest.skip("npm is not installed here: the offline bundle cannot be built")
    if state_of(app).offline.offered:
        yield live_server, app
        return
    from werkzeug.serving import make_server

    from webapp.offline.build import build_bundle

    folder = tmp_path_factory.mktemp("offline") / "bundle"
    build_bundle(folder, log=lambda line: None)
    built = create_app({"TESTING": True, "OFFLINE_BUNDLE_DIR": str(folder)})
    assert state_of(built).offline.offered
    server = make_server("127.0.0.1", 0, built, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}", built
    server.shutdown()
    thread.join()


@pytest.fixture(scope="module")
def offline(browser, bundle_server):
    """A phone that switched on "Use Red Book offline", then lost its connection: its page."""
    base, app = bundle_server
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(base + "/")
    page.wait_for_function("() => navigator.serviceWorker.controller?.state === 'activated'", timeout=30000)
    toggle = page.locator("[data-offline-toggle]")
    expect(toggle).to_be_visible()
    toggle.click()
    expect(page.locator("[data-offline-status]")).to_have_text(re.compile("^On: calculators and search work"),
                                                               timeout=180000)
    expect(page.locator("[data-offline-remove]")).to_be_visible()
    context.set_offline(True)
    page.base = base
    page.app = app
    yield page
    context.close()
    assert errors == [], errors


def server_text(base, path):
    """The server's own answer, asked over the network from here (the browser is offline, not the test)."""
    with urllib.request.urlopen(base + path, timeout=60) as response:
        return response.read().decode()


def follow(page, path):
    """Follow a link to path from the page, as a player taps one: offline.js answers it in the page."""
    page.evaluate("(path) => { const a = document.createElement('a'); a.href = path; document.body.append(a); a.click(); }",
                  path)
    wait_for(page, path)


def wait_for(page, path):
    page.wait_for_function("(path) => location.pathname + location.search === path && document.readyState === 'complete'"
                           " && !document.documentElement.hasAttribute('aria-busy')", arg=path, timeout=60000)


def answered_at(page):
    """Where the page went once a form was sent (its inputs in the address), when it is shown."""
    page.wait_for_function("() => location.search && document.readyState === 'complete'"
                           " && !document.documentElement.hasAttribute('aria-busy')", timeout=60000)
    return page.evaluate("() => location.pathname + location.search")


def fetched(page, path):
    """What the page gets for path: with no network, the answer of the bundle's Python."""
    return page.evaluate("(path) => fetch(path).then((r) => r.text())", path)


def answer_text(page, html=None):
    """The answer's words and figures, spaces folded: of the page shown, or of the given HTML."""
    return page.evaluate("""(html) => {
        const doc = html ? new DOMParser().parseFromString(html, "text/html") : document;
        const answer = doc.querySelector("main section.answer");
        return answer ? answer.textContent.replace(/\\s+/g, " ").trim() : null;
    }""", html)


def test_switching_on_stored_the_bundle_of_this_version(offline):
    bundle = state_of(offline.app).offline
    stored = offline.evaluate("(name) => caches.open(name).then((c) => c.keys()).then((ks) => ks.map((k) => k.url))",
                              f"redbook-python-{bundle.version}")
    names = {url.rsplit("/", 1)[-1] for url in stored}
    assert set(bundle.files) | {"manifest.json", "worker.js", "answer"} == names
    remove = offline.locator("[data-offline-remove]").inner_text()
    assert f"{bundle.unpacked_bytes() / 1e6:.1f} MB" in remove


@pytest.mark.parametrize("calc_id", CALCULATORS)
def test_every_calculator_answers_offline_as_the_server(offline, calc_id):
    calc = state_of(offline.app).calculators[calc_id]  # bound to the content: its data's examples read
    # the form with its examples typed in, as a player fills it: an empty form is answered with what it lacks
    form = f"/{calc.game}/calc/{calc.slug}?{urlencode(calc.form_query())}"
    follow(offline, form)
    expect(offline.locator("h1")).to_have_text(calc.title)
    offline.get_by_role("button", name="Calculate", exact=True).click()
    asked = answered_at(offline)
    served = server_text(offline.base, asked)
    shown = answer_text(offline)
    assert shown and offline.locator("main .headline").first.is_visible()
    assert shown == answer_text(offline, served), "the headline and figures differ from the server's"
    assert fetched(offline, asked) == served, "the page differs from the server's"


def test_plans_side_by_side_answer_offline_as_the_server(offline):
    calc = state_of(offline.app).calculators["wotr-roll"]
    follow(offline, f"/{calc.game}/calc/{calc.slug}?{urlencode(calc.form_query())}")
    offline.get_by_role("button", name=re.compile("^Compare with a second plan")).click()
    offline.wait_for_function("() => location.search.includes('plan') && document.querySelectorAll('main .plan-results > *').length > 1",
                              timeout=30000)
    asked = offline.evaluate("() => location.pathname + location.search")
    served = server_text(offline.base, asked)
    assert answer_text(offline) == answer_text(offline, served)
    assert fetched(offline, asked) == served


def player_questions():
    questions = []
    for path in sorted((PROJECT_ROOT / "tests" / "player_questions").glob("*.yaml")):
        questions += [item["q"] for item in yaml.safe_load(path.read_text())[:QUESTIONS_PER_GAME]]
    return questions


def test_fifty_player_questions_find_the_server_s_top_ten_offline(offline):
    questions = player_questions()
    assert len(questions) == 50
    paths = ["/api/search?" + urlencode({"q": q, "limit": 10}) for q in questions]
    offline_ids = offline.evaluate("""async (paths) => {
        const ids = [];
        for (const path of paths) ids.push((await (await fetch(path)).json()).results.map((hit) => hit.id));
        return ids;
    }""", paths)
    server_ids = [[hit["id"] for hit in json.loads(server_text(offline.base, path))["results"]] for path in paths]
    assert all(server_ids) and offline_ids == server_ids


def test_the_search_box_and_the_search_page_answer_offline(offline):
    follow(offline, "/wotr/")
    box = offline.locator("#site-search")
    box.press_sequentially("leader re-roll", delay=20)
    first = offline.locator("#live-results a").first
    expect(first).to_be_visible(timeout=30000)
    api = json.loads(server_text(offline.base, "/api/search?" + urlencode({"q": "leader re-roll", "limit": 8, "game": "wotr"})))
    assert first.get_attribute("href") == api["results"][0]["url"]
    box.press("Enter")
    asked = "/search?" + urlencode({"q": "leader re-roll", "game": "wotr"})
    wait_for(offline, asked)
    assert fetched(offline, asked) == server_text(offline.base, asked)
    expect(offline.locator("main")).not_to_contain_text("needs a connection")


def test_pages_never_visited_open_offline(offline):
    rule = offline.goto(offline.base + "/meq/combat-rules")  # saved for offline use, never opened
    assert rule.from_service_worker
    expect(offline.locator("h1")).to_have_text("Combat rules", use_inner_text=True, ignore_case=True)
    never_saved = "/meccg/glossary?view=topics"  # not saved: the bundle's Python works it out
    offline.goto(offline.base + never_saved)
    offline.wait_for_function("() => !document.querySelector('[data-offline-answering]')", timeout=60000)
    assert offline.evaluate("() => document.querySelector('main').innerHTML") == offline.evaluate(
        "(html) => new DOMParser().parseFromString(html, 'text/html').querySelector('main').innerHTML",
        server_text(offline.base, never_saved))


def test_a_bundle_of_another_version_is_dropped_before_anything_answers(offline):
    offline.context.set_offline(False)
    offline.evaluate("""() => caches.open("redbook-python-an-older-version")
        .then((c) => c.put("/offline/bundle/an-older-version/manifest.json", new Response("{}")))""")
    offline.goto(offline.base + "/wotr/")
    offline.wait_for_function("""async () => !(await caches.has("redbook-python-an-older-version"))""", timeout=30000)
    version = state_of(offline.app).offline.version
    assert offline.evaluate("(name) => caches.has(name)", f"redbook-python-{version}")
    offline.context.set_offline(True)


def test_removing_the_offline_data_frees_it_and_calculators_need_a_connection_again(offline):
    offline.context.set_offline(False)
    offline.goto(offline.base + "/")
    offline.locator("[data-offline-remove]").click()
    expect(offline.locator("[data-offline-status]")).to_have_text(re.compile("^Removed"))
    assert offline.evaluate("() => caches.keys().then((names) => names.filter((n) => n.startsWith('redbook-python-')))") == []
    expect(offline.locator("[data-offline-toggle]")).to_be_visible()
    offline.context.set_offline(True)
    offline.goto(offline.base + "/fotf/calc/ring?nazgul=2&hope=4")
    expect(offline.locator("h1")).to_have_text("Calculators need a connection", use_inner_text=True)
