"""On a phone, 390x844 and a small 320x640 one: the breadcrumb trail is one row, its links whole and the page's
own name cut short with an ellipsis when it does not fit (its full name still in the page); a row of links that
wraps never starts or ends a line with its "·" separator; every word of a chart is drawn inside it."""
from urllib.parse import urlencode

import pytest

from webapp.calculators import CALCULATORS
from webapp.content import GAME_IDS

pytestmark = pytest.mark.browser

PHONES = {"390x844": {"width": 390, "height": 844}, "320x640": {"width": 320, "height": 640}}
SMALLEST = 44  # px: the trail's links stay tap targets


@pytest.fixture(params=list(PHONES))
def phone(request, browser):
    """A fresh page at each phone size, without the service worker (its precache only loads the server)."""
    context = browser.new_context(viewport=PHONES[request.param], device_scale_factor=2, is_mobile=True,
                                  has_touch=True, service_workers="block")
    yield context.new_page()
    context.close()


def trail_pages(library, game_id):
    """The game's section with the longest title and the one with the shortest, its calculator with the longest
    title and its checklist page, each with the page's own name as its trail ends."""
    game = library.games[game_id]
    sections = sorted((s for s in library.sections() if s.game == game_id), key=lambda s: len(s.title))
    pages = [(f"/{game_id}/{s.id}", s.title) for s in (sections[-1], sections[0])]
    calcs = sorted((c for c in CALCULATORS.values() if c.game == game_id), key=lambda c: len(c.title))
    pages += [(f"/{game_id}/calc/{c.slug}", c.title) for c in calcs[-1:]]
    turn_name = game.turn_name[:1].upper() + game.turn_name[1:]
    return pages + [(f"/{game_id}/turn", f"{turn_name} checklist")]


TRAIL = """() => {
    const ol = document.querySelector('nav.breadcrumbs ol');
    const style = getComputedStyle(ol);
    const items = [...ol.children].map((li) => {
        const box = li.getBoundingClientRect();
        return {text: li.textContent, current: li.getAttribute('aria-current'), height: box.height,
                left: box.left, right: box.right, cut: li.scrollWidth > li.clientWidth,
                ellipsis: getComputedStyle(li).textOverflow,
                links: [...li.querySelectorAll('a')].map((a) => a.getBoundingClientRect().height)};
    });
    return {height: ol.getBoundingClientRect().height - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom),
            left: ol.getBoundingClientRect().left + parseFloat(style.paddingLeft),
            items, pageWidth: document.documentElement.scrollWidth, viewport: window.innerWidth};
}"""


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_breadcrumb_trail_is_one_row(phone, live_server, library, game_id):
    cut = []
    for path, name in trail_pages(library, game_id):
        phone.goto(live_server + path)
        trail = phone.evaluate(TRAIL)
        *earlier, current = trail["items"]
        tallest = max(item["height"] for item in trail["items"])
        assert trail["height"] <= tallest + 1, f"{path}: the trail is {trail['height']:.0f} px tall, its items {tallest:.0f}"
        assert current["current"] == "page" and current["text"] == name, (path, current)
        for item in earlier:
            assert not item["cut"] and item["right"] <= trail["viewport"], f"{path}: {item['text']!r} is cut short"
            assert all(height >= SMALLEST for height in item["links"]), (path, item)
        assert current["right"] <= trail["viewport"] + 0.5, (path, current)
        # a page wider than the phone would widen the window the trail is measured in
        assert trail["pageWidth"] == trail["viewport"] == phone.viewport_size["width"], f"{path}: the page scrolls sideways"
        if current["cut"]:
            assert current["ellipsis"] == "ellipsis", path
            cut.append(path)
    if phone.viewport_size["width"] == 320:
        # the longest titles do not fit a small phone: the case the ellipsis is for is tested
        assert cut, f"no page of {game_id} has its name cut short at 320 px"


# Each visible "·" that starts or ends a line of a row of links, or a line whose neighbouring links have no "·"
# between them. A separator is found either as a "·" typed in the row's text or as the "·" the style sheet draws
# before a list item (the space from the item's left edge to its link); it is visible when its middle is inside
# whatever clips the row. Lines are told apart by the boxes of the links (of each piece of a link that wraps).
LONE_SEPARATORS = """(selector) => {
    const found = [], lines = [];
    for (const row of document.querySelectorAll(selector)) {
        if (!row.getClientRects().length) continue;  // folded away
        let clip = new DOMRect(-1e6, -1e6, 2e6, 2e6);
        for (let e = row; e; e = e.parentElement) {
            if (getComputedStyle(e).overflowX === 'visible') continue;
            const box = e.getBoundingClientRect();
            const left = Math.max(clip.left, box.left), right = Math.min(clip.right, box.right);
            clip = new DOMRect(left, clip.top, right - left, clip.height);
        }
        const words = [], separators = [];
        const walker = document.createTreeWalker(row, NodeFilter.SHOW_TEXT);
        for (let node; (node = walker.nextNode());) {
            if (node.parentElement.closest('a')) continue;
            for (let i = 0; i < node.data.length; i++) {
                if (/\\s/.test(node.data[i])) continue;
                const range = document.createRange();
                range.setStart(node, i);
                range.setEnd(node, i + 1);
                for (const box of range.getClientRects()) (node.data[i] === '·' ? separators : words).push(box);
            }
        }
        for (const li of row.querySelectorAll('li')) {
            const before = getComputedStyle(li, '::before');
            if (!before.content.includes('·') || before.visibility === 'hidden') continue;
            const item = li.getBoundingClientRect(), link = li.querySelector('a').getBoundingClientRect();
            separators.push(new DOMRect(item.left, link.top, link.left - item.left, link.height));
        }
        // a link that wraps is a piece on each of its lines
        const links = [...row.querySelectorAll('a')].flatMap((a) => [...a.getClientRects()].map((box) => ({box, text: a.textContent})));
        const middle = (box) => [box.left + box.width / 2, box.top + box.height / 2];
        const shown = separators.filter((box) => { const [x, y] = middle(box); return x >= clip.left && x <= clip.right; });
        // a line: the links whose boxes share a height band, left to right
        const bands = [];
        for (const link of links) {
            const line = bands.find((l) => link.box.top < l.bottom && link.box.bottom > l.top);
            if (line) { line.links.push(link); } else { bands.push({top: link.box.top, bottom: link.box.bottom, links: [link]}); }
        }
        bands.forEach((line) => line.links.sort((a, b) => a.box.left - b.box.left));
        lines.push(bands.length);
        const name = row.className;
        for (const box of shown) {
            const [x, y] = middle(box);
            const line = bands.find((l) => y >= l.top && y <= l.bottom);
            if (!line) { found.push(`${name}: a "·" on a line of its own`); continue; }
            const here = [...line.links.map((l) => l.box), ...words.filter((w) => { const [, wy] = middle(w); return wy >= line.top && wy <= line.bottom; })];
            if (x < Math.min(...here.map((b) => b.left))) found.push(`${name}: a line starts with "·" before ${line.links[0].text}`);
            if (x > Math.max(...here.map((b) => b.right))) found.push(`${name}: a line ends with "·" after ${line.links.at(-1).text}`);
        }
        for (const line of bands) {
            const ordered = line.links;
            for (let i = 1; i < ordered.length; i++) {
                const between = shown.filter((box) => { const [x, y] = middle(box);
                    return x > ordered[i - 1].box.right && x < ordered[i].box.left && y >= line.top && y <= line.bottom; });
                if (between.length !== 1) found.push(`${name}: ${between.length} "·" between ${ordered[i - 1].text} and ${ordered[i].text}`);
            }
        }
    }
    return {found, lines};
}"""

LINK_ROWS = ".game-links, .step-links, .turn-links"


def open_every_fold(page):
    """A step's links are in its folded rule: open them all."""
    page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")


def test_a_wrapped_row_of_links_never_starts_or_ends_a_line_with_a_separator(phone, live_server):
    wrapped = 0
    for path in ["/"] + [f"/{game_id}/turn" for game_id in GAME_IDS]:
        phone.goto(live_server + path)
        open_every_fold(phone)
        rows = phone.evaluate(LONE_SEPARATORS, LINK_ROWS)
        assert rows["lines"], f"no row of links measured on {path}"
        assert rows["found"] == [], f"{path}: " + "\n  ".join(rows["found"])
        wrapped += sum(1 for count in rows["lines"] if count > 1)
    # rows that wrap are what this is about: at a phone's width some do
    assert wrapped >= 3, wrapped


def test_the_measure_finds_a_separator_at_a_line_end(phone, live_server):
    # the check above must be able to fail: the row as it was, " · " typed between links that are tap targets,
    # wraps with the "·" left at a line's end
    phone.goto(live_server + "/")
    phone.evaluate("""() => { const row = document.querySelector('.game-links');
        const links = [...row.querySelectorAll('a')].map((a) => a.outerHTML);
        row.outerHTML = '<p class="game-links">Odds and scores: ' + links.join(' · ') + '</p>';
        document.querySelectorAll('p.game-links a').forEach((a) => {
            Object.assign(a.style, {display: 'inline-flex', alignItems: 'center', minHeight: '44px'}); }); }""")
    assert any("a line ends with" in found for found in phone.evaluate(LONE_SEPARATORS, LINK_ROWS)["found"])
    # and the row's own "·" if the row no longer clips the one that leads a line
    phone.goto(live_server + "/")
    phone.evaluate("document.querySelectorAll('.link-row').forEach((row) => { row.style.overflow = 'visible'; })")
    assert any("a line starts with" in found for found in phone.evaluate(LONE_SEPARATORS, LINK_ROWS)["found"])


PRINT_TRAIL = """() => {
    const ol = document.querySelector('.print-nav .print-trail');
    const items = [...ol.children].map((li) => ({text: li.textContent, height: li.getBoundingClientRect().height,
        right: li.getBoundingClientRect().right, links: [...li.querySelectorAll('a')].map((a) => a.getBoundingClientRect().height)}));
    return {height: ol.getBoundingClientRect().height, items,
            pageWidth: document.documentElement.scrollWidth, viewport: window.innerWidth};
}"""


@pytest.mark.parametrize("path", ["/print"] + [f"/{game_id}/print" for game_id in GAME_IDS])
def test_the_print_sheets_trail_is_one_row_on_screen(phone, live_server, library, path):
    phone.goto(live_server + path)
    trail = phone.evaluate(PRINT_TRAIL)
    tallest = max(item["height"] for item in trail["items"])
    assert trail["height"] <= tallest + 1, f"{path}: the trail is {trail['height']:.0f} px tall, its items {tallest:.0f}"
    for item in trail["items"]:
        assert all(height >= SMALLEST for height in item["links"]), (path, item)
        assert item["right"] <= trail["viewport"] + 0.5, (path, item)
    if path != "/print":
        game = library.games[path.split("/")[1]]
        assert trail["items"][1]["text"] == game.short_title
        assert trail["items"][-1]["text"].endswith("checklist")  # its whole name, though it may show cut short
    assert trail["pageWidth"] == trail["viewport"], f"{path}: the page scrolls sideways"


LARGER_TEXT = ["/", "/wotr/", "/meccg/strikes", "/meccg/glossary", "/wotr/calc/battle", "/search?q=strike&game=meccg"]


@pytest.mark.parametrize("path", LARGER_TEXT)
def test_larger_text_makes_the_rules_larger_and_the_page_no_wider(browser, live_server, path):
    # a reader who sets larger text (the root's font size) gets larger body text, and nothing runs off the side
    # of a 390px phone (on a 320px one a breadcrumb link of a long game name is wider than the screen)
    context = browser.new_context(viewport=PHONES["390x844"], device_scale_factor=2, is_mobile=True, has_touch=True,
                                  service_workers="block")
    phone = context.new_page()
    phone.goto(f"{live_server}{path}")
    size = "parseFloat(getComputedStyle(document.body).fontSize)"
    normal = phone.evaluate(size)
    phone.evaluate("document.documentElement.style.fontSize = '150%'")
    assert phone.evaluate(size) == pytest.approx(normal * 1.5)
    assert phone.evaluate("document.documentElement.scrollWidth") <= phone.viewport_size["width"]
    context.close()


def test_each_see_also_link_is_on_a_line_of_its_own(phone, live_server):
    # no comma left alone on a line between two 44px links: the links are a list, each its own line
    phone.goto(f"{live_server}/meccg/glossary#term-sideboard")
    tops = phone.evaluate("""[...document.querySelectorAll('#term-sideboard .see li a')]
                             .map((a) => a.getBoundingClientRect().top)""")
    assert len(tops) >= 2 and tops == sorted(tops) and len(set(tops)) == len(tops)
    assert "," not in phone.locator("#term-sideboard .see").inner_text().removeprefix("See also:")


CHART_WORDS = """() => [...document.querySelectorAll('figure.chart svg')].flatMap((svg) => {
    const frame = svg.getBoundingClientRect();
    return [...svg.querySelectorAll('text')].map((text) => {
        const box = text.getBoundingClientRect();
        return {text: text.textContent, inside: box.width > 0 && box.left >= frame.left - 0.5
                && box.right <= frame.right + 0.5 && box.top >= frame.top - 0.5 && box.bottom <= frame.bottom + 0.5};
    });
})"""


def test_every_word_of_a_chart_is_drawn_inside_it(phone, live_server):
    # a battle's chance by round is a line chart, its axis named "round" under the round numbers
    phone.goto(f"{live_server}/wotr/calc/battle?{urlencode(CALCULATORS['wotr-battle'].form_query())}")
    phone.evaluate("document.querySelectorAll('details').forEach((details) => { details.open = true; })")
    words = phone.evaluate(CHART_WORDS)
    assert "round" in [word["text"] for word in words]
    assert [word["text"] for word in words if not word["inside"]] == []
