"""HTTP behaviour: compression, validators and 304s, Cache-Control, security headers, redirects,
trusted hosts, proxy settings, the health check and the cost of the largest requests."""
import gzip
import json
import re
from types import SimpleNamespace

import brotli
import pytest
from flask import request

from webapp import create_app
from webapp.api.calculators import UNREADABLE_BODY

BATTLE = "attacker_regulars=3&defender_regulars=2&attacker_policy=strength&defender_policy=strength&terrain=field"
BATTLE_PAGE = "/wotr/calc/battle?" + BATTLE
PAGES = [
    "/", "/wotr/", "/wotr/combat-round", "/meccg/turn", "/fotf/print", "/print?games=wotr,meq",
    "/search?q=leader+reroll", BATTLE_PAGE,
    "/sw.js", "/offline",
]
API_GETS = ["/api/search?q=corruption+check", "/api/wotr/battle?" + BATTLE, "/api/openapi.json"]


def decoded(response):
    encoding = response.headers.get("Content-Encoding")
    if encoding == "gzip":
        return gzip.decompress(response.data)
    if encoding == "br":
        return brotli.decompress(response.data)
    if encoding == "zstd":
        from backports import zstd
        return zstd.decompress(response.data)
    assert encoding is None, encoding
    return response.data


def asset_urls(client):
    html = client.get("/").get_data(as_text=True)
    return re.findall(r'(?:href|src)="(/static/[^"?]+\.(?:css|js)\?v=[0-9a-f]+)"', html)


# --------------------------------------------------------------------------- compression


@pytest.mark.parametrize("encoding", ["gzip", "br", "zstd"])
@pytest.mark.parametrize("url", PAGES + API_GETS)
def test_pages_and_api_answers_are_compressed_when_asked(client, url, encoding):
    plain = client.get(url)
    packed = client.get(url, headers={"Accept-Encoding": encoding})
    assert plain.status_code == packed.status_code == 200
    assert "Content-Encoding" not in plain.headers
    assert packed.headers["Content-Encoding"] == encoding
    assert "Accept-Encoding" in packed.headers["Vary"]
    assert len(packed.data) < len(plain.data)
    assert decoded(packed) == plain.data


def test_a_rule_page_travels_gzipped_at_a_third_of_its_size_or_less(client):
    plain = client.get("/wotr/combat-round")
    packed = client.get("/wotr/combat-round", headers={"Accept-Encoding": "gzip, deflate"})
    assert packed.headers["Content-Encoding"] == "gzip"
    assert int(packed.headers["Content-Length"]) == len(packed.data) <= len(plain.data) / 3


def test_css_and_js_are_compressed(client):
    urls = asset_urls(client)
    assert any(u.endswith(".js") for u in (url.split("?")[0] for url in urls))
    for url in urls:
        with client.get(url) as plain, client.get(url, headers={"Accept-Encoding": "gzip"}) as packed:
            assert packed.headers["Content-Encoding"] == "gzip", url
            assert decoded(packed) == plain.data, url


def test_the_client_preference_is_followed(client):
    response = client.get("/wotr/combat-round", headers={"Accept-Encoding": "gzip;q=1.0, br;q=0.5"})
    assert response.headers["Content-Encoding"] == "gzip"
    response = client.get("/wotr/combat-round", headers={"Accept-Encoding": "gzip;q=0, identity"})
    assert "Content-Encoding" not in response.headers


# --------------------------------------------------------------------------- validators and 304


@pytest.mark.parametrize("url", PAGES + API_GETS)
def test_pages_and_api_gets_revalidate_to_304(client, url):
    first = client.get(url, headers={"Accept-Encoding": "gzip"})
    etag = first.headers["ETag"]
    assert etag.startswith('W/"'), "one validator for every encoding of a page is a weak one"
    assert client.get(url).headers["ETag"] == etag, "the plain and gzipped bodies share the validator"
    assert "public" in first.headers["Cache-Control"]
    again = client.get(url, headers={"Accept-Encoding": "gzip", "If-None-Match": etag})
    assert again.status_code == 304 and again.data == b""
    assert again.headers["ETag"] == etag
    assert again.headers["Cache-Control"] == first.headers["Cache-Control"]
    assert "Accept-Encoding" in again.headers["Vary"]
    # a cache that dropped the W/ prefix still revalidates (If-None-Match compares weakly)
    assert client.get(url, headers={"If-None-Match": etag[2:]}).status_code == 304
    assert client.get(url, headers={"If-None-Match": f'"stale", {etag}'}).status_code == 304


def test_a_head_request_revalidates_too(client):
    etag = client.get("/wotr/combat-round").headers["ETag"]
    assert client.head("/wotr/combat-round", headers={"If-None-Match": etag}).status_code == 304


@pytest.mark.parametrize("if_none_match", ['"nothing"', 'W/"nothing"', "*"])
def test_other_validators_get_the_whole_page(client, if_none_match):
    response = client.get("/wotr/combat-round", headers={"If-None-Match": if_none_match})
    assert response.status_code == 200 and b"</html>" in response.data


def test_every_page_has_its_own_validator(client):
    tags = [client.get(url).headers["ETag"] for url in PAGES + API_GETS]
    assert len(set(tags)) == len(tags)
    assert client.get("/api/search?q=hope").headers["ETag"] != client.get("/api/search?q=hope&limit=3").headers["ETag"]


def test_a_304_is_answered_before_the_view_runs(client, monkeypatch):
    url = "/search?q=leader+reroll"
    etag = client.get(url).headers["ETag"]

    def no_search(*args, **kwargs):
        raise AssertionError("a revalidation must not search")

    monkeypatch.setattr("webapp.main.views.search", no_search)
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 304


def test_a_content_change_changes_the_validator(app, content_copy, tmp_path):
    url = "/wotr/combat-round"
    before = app.test_client().get(url).headers["ETag"]
    same = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path / "a"), "CONTENT_DIR": str(content_copy)})
    assert same.test_client().get(url).headers["ETag"] == before, "the same content and code give the same tag"
    game = next((content_copy / "wotr").glob("*.yaml"))
    game.write_text(game.read_text() + "\n# a change\n")
    changed = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path / "b"), "CONTENT_DIR": str(content_copy)})
    client = changed.test_client()
    assert client.get(url).headers["ETag"] != before
    assert client.get(url, headers={"If-None-Match": before}).status_code == 200


def test_the_validator_comes_from_the_templates_as_served(tmp_path, monkeypatch):
    """Templates are compiled when the app is created: a change on disk afterwards changes neither the
    page nor its tag, and an app created after it serves the change under another tag."""
    import shutil

    import webapp
    from webapp.settings import data_folder

    templates = tmp_path / "templates"
    shutil.copytree(data_folder("templates"), templates)
    monkeypatch.setattr(webapp, "data_folder", lambda name: templates if name == "templates" else data_folder(name))
    url = "/wotr/calc/roll?strength=3&hit=5"  # a page no request has drawn yet
    before = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path / "a")})
    calculator = templates / "calculator.html"
    calculator.write_text(calculator.read_text().replace("{{ calc.title }} — ", "{{ calc.title }} changed on disk — "))
    page = before.test_client().get(url)
    assert "changed on disk" not in page.get_data(as_text=True)
    after = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path / "b")}).test_client()
    changed = after.get(url)
    assert "changed on disk" in changed.get_data(as_text=True)
    assert changed.headers["ETag"] != page.headers["ETag"]
    assert after.get(url, headers={"If-None-Match": page.headers["ETag"]}).status_code == 200


@pytest.mark.parametrize("method, url, kwargs", [
    ("GET", "/healthz", {}),
    ("GET", "/nothing/here", {}),
    ("GET", "/api/search?q=", {}),
    ("GET", "/wotr/calc/roll?strength=99&hit=5", {}),
    ("POST", "/api/wotr-cards/victory", {"json": {"free_peoples_points": 3, "shadow_points": 4}}),
])
def test_errors_posts_and_health_are_not_tagged(client, method, url, kwargs):
    response = client.open(url, method=method, **kwargs)
    assert "ETag" not in response.headers
    assert "public" not in response.headers["Cache-Control"]


# --------------------------------------------------------------------------- static files


def test_static_files_are_immutable_only_at_their_own_hash(client):
    urls = asset_urls(client)
    assert len(urls) >= 2
    for url in urls:
        with client.get(url) as right:
            assert right.status_code == 200 and "immutable" in right.headers["Cache-Control"], url
        path, digest = url.split("?v=")
        other = "0" * len(digest)
        # the same file by another name: no hash is known for it, so nothing matches
        other_names = (f"{path}/", path.replace("/static/", "/static/./"))
        for wrong in (f"{path}?v={other}", f"{path}?v=anything", path, *other_names):
            with client.get(wrong) as response:
                assert response.status_code == 200
                assert "immutable" not in response.headers["Cache-Control"], wrong
                assert "no-cache" in response.headers["Cache-Control"], wrong
    # one file's hash is not another's
    first, second = urls[0].split("?v="), urls[1].split("?v=")
    with client.get(f"{first[0]}?v={second[1]}") as response:
        assert "immutable" not in response.headers["Cache-Control"]


# --------------------------------------------------------------------------- headers, redirects, hosts


@pytest.mark.parametrize("url", ["/", "/wotr/combat-round", "/api/search?q=hope", "/nope", "/api/nope",
                                 "/static/style.css", "/healthz"])
def test_cross_origin_and_permissions_headers_on_every_response(client, url):
    with client.get(url) as response:
        headers = response.headers
        assert headers["Cross-Origin-Opener-Policy"] == "same-origin"
        assert headers["Cross-Origin-Resource-Policy"] == "same-origin"
        policy = headers["Permissions-Policy"]
        for feature in ("camera", "microphone", "geolocation", "payment"):
            assert f"{feature}=()" in policy


@pytest.mark.parametrize("method, url", [("POST", "/wotr/combat-round"), ("DELETE", "/"), ("PUT", "/search")])
def test_html_405_lists_the_allowed_methods(client, method, url):
    response = client.open(url, method=method)
    assert response.status_code == 405 and response.mimetype == "text/html"
    assert "GET" in response.headers["Allow"] and method not in response.headers["Allow"]


@pytest.mark.parametrize("url, location", [("/wotr", "/wotr/"), ("/wotr/calc", "/wotr/calc/"),
                                           ("/meccg/calc?x=1", "/meccg/calc/?x=1")])
@pytest.mark.parametrize("host", ["evil.example", "evil.example:8443", "localhost"])
def test_redirects_never_repeat_the_host_header(client, url, location, host):
    response = client.get(url, headers={"Host": host, "X-Forwarded-Host": "evil.example"})
    assert response.status_code in (301, 308)
    assert response.headers["Location"] == location


# one page of every kind: a game's overview and its calculators (their own path ends in a slash),
# a rule section, a glossary in a view, a checklist, print sheets, a calculator's form and its
# answer, search, the offline page; each is asked with the slash added or taken away
SLASH_PAGES = ["/wotr/", "/wotr/calc/", "/wotr/combat-dice", "/meccg/glossary?view=topics", "/meq/turn",
               "/fotf/print?paper=letter", "/print?games=wotr,meq", "/meccg/calc/strike", BATTLE_PAGE,
               "/search?q=leader+reroll", "/offline/calculator"]


def slash_twin(page):
    path, _, query = page.partition("?")
    return (path[:-1] if path.endswith("/") else path + "/") + (f"?{query}" if query else "")


@pytest.mark.parametrize("page", SLASH_PAGES)
@pytest.mark.parametrize("host", ["localhost", "evil.example"])
def test_a_page_asked_with_or_without_its_trailing_slash_is_redirected_to_it(client, page, host):
    for method in (client.get, client.head):
        response = method(slash_twin(page), headers={"Host": host, "X-Forwarded-Host": "evil.example"})
        assert response.status_code == 308, (method, slash_twin(page))
        assert response.headers["Location"] == page, "the same page, the same query, on this site"
    assert client.get(page).status_code == 200


def test_every_rule_section_and_calculator_redirects_from_its_slash_twin(app, client, library):
    from webapp.calculators import CALCULATORS, calculator_url

    with app.test_request_context():
        pages = [f"/{game.id}/{section}" for game in library.games.values() for section in game.sections]
        pages += [calculator_url(calc_id) for calc_id in CALCULATORS]
    assert len(pages) > 20
    for page in pages:
        response = client.get(page + "/?view=topics")
        assert (response.status_code, response.headers.get("Location")) == (308, page + "?view=topics"), page


@pytest.mark.parametrize("url", ["/wotr/nope/", "/wotr/nope", "/wotr/calc/nope/", "/wotr-cards/calc/roll/", "/nope/",
                                 "/nope", "/wotr/combat-dice/extra/", "/wotr/combat-dice//",
                                 "/offline/nope/"])
def test_an_address_that_is_no_page_either_way_stays_a_404(client, url):
    response = client.get("/", environ_overrides={"PATH_INFO": url})
    assert response.status_code == 404 and "Location" not in response.headers, url
    assert "There is no page here" in response.get_data(as_text=True)


@pytest.mark.parametrize("url", ["//evil.example/", "/\\evil.example/", "//evil.example"])
def test_a_slash_redirect_never_leaves_the_site(client, url):
    response = client.get("/", environ_overrides={"PATH_INFO": url})
    location = response.headers.get("Location", "/")
    assert location.startswith("/") and not location.startswith(("//", "/\\")), location


@pytest.mark.parametrize("url", ["/api/wotr/roll/?strength=5&hit=5&leadership=0", "/api/search/?q=hope",
                                 "/api/openapi.json/"])
def test_the_api_answers_only_at_its_own_paths(client, url):
    # the OpenAPI document gives each path exactly: another is a JSON 404, not a redirect
    response = client.get(url)
    assert response.status_code == 404 and "Location" not in response.headers
    assert response.get_json() == {"error": "Not Found"}


def test_only_a_page_read_is_redirected(client):
    assert client.post("/wotr/turn/").status_code == 404
    assert client.get("/wotr/turn/").status_code == 308


def test_trusted_hosts_from_the_environment_refuse_other_hosts(monkeypatch, tmp_path):
    monkeypatch.setenv("FLASK_TRUSTED_HOSTS", '["rules.example.org"]')
    client = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path)}).test_client()
    assert client.get("/wotr/", headers={"Host": "rules.example.org"}).status_code == 200
    for path in ("/wotr", "/wotr/combat-dice/"):
        refused = client.get(path, headers={"Host": "evil.example"})
        assert refused.status_code == 400 and "Location" not in refused.headers


@pytest.mark.parametrize("proxy_fix, address, scheme", [
    (None, "127.0.0.1", "http"),
    ({"x_for": 1, "x_proto": 1}, "203.0.113.9", "https"),
])
def test_proxy_headers_are_read_only_when_configured(tmp_path, proxy_fix, address, scheme):
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path), "PROXY_FIX": proxy_fix})
    app.add_url_rule("/peer", "peer", lambda: {"address": request.remote_addr, "scheme": request.scheme})
    body = app.test_client().get("/peer", headers={"X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": "https"},
                                 environ_base={"REMOTE_ADDR": "127.0.0.1"}).get_json()
    assert body == {"address": address, "scheme": scheme}


# --------------------------------------------------------------------------- health


def test_healthz_answers_when_search_does(client):
    response = client.get("/healthz")
    assert response.status_code == 200 and response.get_json() == {"status": "ok"}
    assert response.headers["Cache-Control"] == "no-store"


@pytest.mark.parametrize("broken", ["no hits", "raises"])
def test_healthz_fails_when_search_does_not_answer(client, monkeypatch, broken):
    def failing(text, **kwargs):
        if broken == "raises":
            raise RuntimeError("index unreadable")
        return SimpleNamespace(query=text, total=0, hits=[], suggestion=None)

    monkeypatch.setattr("webapp.main.views.search", failing)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.get_json()["error"].startswith("search:")


# --------------------------------------------------------------------------- the largest requests


def test_the_64_kb_path_combat_post_is_refused_by_name(client):
    body = json.dumps({"shadow_attack_icons": 99, "path_defence": 0, "defenders": [0] * 32_700},
                      separators=(",", ":"))
    assert 60_000 < len(body) <= 64 * 1024
    response = client.post("/api/wotr-cards/path-combat", data=body, content_type="application/json")
    assert response.status_code == 400
    assert response.get_json()["error"].startswith("defenders:")


def test_a_body_over_64_kb_is_413(client):
    body = json.dumps({"shadow_attack_icons": 1, "path_defence": 0, "defenders": [0] * 33_000})
    response = client.post("/api/wotr-cards/path-combat", data=body, content_type="application/json")
    assert response.status_code == 413 and response.get_json()["error"].startswith("body:")


def raw_exchange(base_url, request_bytes):
    """(status, body) of one request sent byte for byte to a server at base_url."""
    import http.client
    import socket
    from urllib.parse import urlsplit

    where = urlsplit(base_url)
    with socket.create_connection((where.hostname, where.port), timeout=10) as connection:
        connection.sendall(request_bytes)
        response = http.client.HTTPResponse(connection)
        response.begin()
        return response.status, response.read()


@pytest.mark.parametrize("chunk", [b"-5", b"zz", b"5;" + b"x" * 10])
def test_a_bad_chunk_size_without_a_proxy_is_a_400_naming_the_body(live_server, chunk):
    """werkzeug's server, as `redbook serve` runs it, reads the chunks itself (nginx would refuse them first)."""
    status, body = raw_exchange(live_server, b"POST /api/wotr-cards/victory HTTP/1.1\r\nHost: localhost\r\n"
                                b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n"
                                b"Connection: close\r\n\r\n" + chunk + b"\r\n{}\r\n0\r\n\r\n")
    assert status == 400
    assert json.loads(body) == {"error": UNREADABLE_BODY}


def test_a_well_formed_chunked_body_is_read(live_server):
    sent = b'{"free_peoples_points": 4, "shadow_points": 10}'
    status, body = raw_exchange(live_server, b"POST /api/wotr-cards/victory HTTP/1.1\r\nHost: localhost\r\n"
                                b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n"
                                b"Connection: close\r\n\r\n" + f"{len(sent):x}".encode() + b"\r\n" + sent
                                + b"\r\n0\r\n\r\n")
    assert status == 200 and "error" not in json.loads(body)


def test_the_largest_allowed_combats_answer(client):
    from webapp.engines.wotr_cards import MAX_CARDS, MAX_ICONS, MAX_ITEMS

    defenders = [{"defence": 0, "items": [0] * MAX_ITEMS}] * MAX_CARDS
    path = client.post("/api/wotr-cards/path-combat", json={
        "shadow_attack_icons": MAX_ICONS, "path_defence": 0, "defenders": defenders, "order": "fewest-losses"})
    assert path.status_code == 200 and path.get_json()["eliminated"] == list(range(MAX_CARDS))
    attackers = [{"attack": MAX_ICONS, "leadership": MAX_ICONS, "faction": "d", "is_army": True}]
    battle = client.post("/api/wotr-cards/battleground-combat", json={
        "owner": "shadow", "attackers": attackers * MAX_CARDS, "battleground_defence": MAX_ICONS,
        "defenders": [MAX_ICONS] * MAX_CARDS, "order": "given"})
    assert battle.status_code == 200 and battle.get_json()["attack"] == 2 * MAX_ICONS * MAX_CARDS
    one_more = client.post("/api/wotr-cards/path-combat", json={
        "shadow_attack_icons": 1, "path_defence": 0, "defenders": [0] * (MAX_CARDS + 1), "order": "given"})
    assert one_more.status_code == 400 and one_more.get_json()["error"].startswith("defenders:")
