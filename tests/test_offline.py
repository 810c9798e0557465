"""The service worker's lists come from the app's routes: every URL it precaches or sends a page to
answers, and the URLs scripts read from the page are the app's own."""
import json
import re

import pytest


def service_worker_constant(client, name):
    body = client.get("/sw.js").get_data(as_text=True)
    return json.loads(re.search(rf"^const {name} = (.*?);", body, re.M).group(1))


def test_every_precached_url_answers(client):
    urls = service_worker_constant(client, "PRECACHE")
    assert "/wotr/turn" in urls and "/print" in urls
    for url in urls:
        with client.get(url) as response:  # static files are streamed: closed here
            assert response.status_code == 200, url


def test_offline_pages_name_real_pages_and_answer(client):
    offline = service_worker_constant(client, "OFFLINE")
    assert offline[-1]["paths"] is None, "the last offline page answers every other page"
    for page in offline:
        assert client.get(page["url"]).status_code == 200, page["url"]
        for path in page["paths"] or ():
            assert client.get(path).status_code in (200, 400), path  # a calculator's empty form asks for input
    search, calculators = offline[0]["paths"], offline[1]["paths"]
    assert search == ["/search"]
    assert "/wotr/calc/roll" in calculators and all("/calc/" in path for path in calculators)


@pytest.mark.parametrize("path", ["/", "/search?q=dice"])
def test_scripts_read_their_urls_from_the_page(client, path):
    page = client.get(path).get_data(as_text=True)
    search_api = re.search(r'data-live-search="([^"]+)"', page).group(1)
    assert client.get(search_api, query_string={"q": "leader"}).get_json()["total"] > 0
    worker = re.search(r'data-service-worker="([^"]+)"', page).group(1)
    assert client.get(worker).mimetype == "text/javascript"
