"""Every rule of every source summary maps to content that exists, and every entry shows its source.

The mapping lives in content/<game>/sources.yaml: the loader attaches it to the entries, and these
tests read the same file.
"""
import html
import re
from pathlib import Path

import pytest
import yaml

from webapp import PROJECT_ROOT, default_config
from webapp.checklist.model import phases
from webapp.content import GAME_IDS, SOURCES_FILE

# read at collection, before any fixture exists: the parameters come from it
CONTENT = Path(default_config()["CONTENT_DIR"])
SOURCES = {game_id: yaml.safe_load((CONTENT / game_id / SOURCES_FILE).read_text()) for game_id in GAME_IDS}
SEEDS = PROJECT_ROOT.parent / "shared" / "seeds"


def summary_rules(data):
    return [(section["section"], rule) for section in data["sections"] for rule in section["rules"]]


def test_every_game_maps_its_summary_section_by_section():
    for game_id, data in SOURCES.items():
        sections = [section["section"] for section in data["sections"]]
        assert len(sections) == len(set(sections)), f"{game_id}: a summary section is listed twice"
        assert len(summary_rules(data)) >= 25, game_id


@pytest.mark.skipif(not SEEDS.is_dir(), reason="source summaries are not beside the project")
def test_sources_name_real_summary_files():
    for data in SOURCES.values():
        assert (SEEDS / data["summary_file"]).is_file(), data["summary_file"]


@pytest.mark.parametrize("game_id, rule, entry_id", [
    pytest.param(game_id, rule["rule"], entry_id, id=f"{game_id}:{entry_id}:{i}")
    for game_id, data in SOURCES.items()
    for i, (_, rule) in enumerate(summary_rules(data) + [(None, r) for r in data.get("rulebook", [])])
    for entry_id in rule["ids"]
])
def test_source_rule_resolves_to_content(client, game_id, rule, entry_id, library):
    game = library.games[game_id]
    target = game.lookup(entry_id)
    assert target is not None, f"{rule!r} -> {entry_id} does not exist"
    page = client.get(target.url.split("#")[0])
    assert page.status_code == 200
    assert f'id="{entry_id}"' in page.get_data(as_text=True) or target.url.endswith(f"/{entry_id}")


def test_an_entry_lists_each_summary_section_that_maps_to_it_in_summary_order(library):
    for game_id, data in SOURCES.items():
        game = library.games[game_id]
        for entry in (e for section in game.sections.values() for e in section.walk()):
            expected = []
            for section, rule in summary_rules(data):
                if entry.id in rule["ids"] and section not in expected:
                    expected.append(section)
            summary = [source.where for source in entry.sources if source.kind == "summary"]
            assert summary == ([tuple(expected)] if expected else []), (game_id, entry.id)
            in_rulebook = any(entry.id in rule["ids"] for rule in data.get("rulebook", []))
            assert in_rulebook == any(source.kind == "rulebook" for source in entry.sources), (game_id, entry.id)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_rule_page_shows_each_entry_its_own_source(client, game_id, library):
    for section in library.games[game_id].sections.values():
        page = client.get(section.url).get_data(as_text=True)
        for entry in section.walk():
            assert entry.sources, entry.id
            start = page.index(f'id="{entry.id}"')
            # The entry's own source line comes before any child entry's.
            line = re.search(r'<p class="source">(.*?)</p>', page[start:]).group(1)
            assert html.unescape(re.sub(r"<[^>]+>", "", line)) == "Source: " + " · ".join(map(str, entry.sources))


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_print_sheet_marks_every_listed_rule_with_a_numbered_source(client, game_id, library):
    game = library.games[game_id]
    page = client.get(f"/{game_id}/print").get_data(as_text=True)
    notes = [html.unescape(n) for n in re.findall(r"<li>(.*?)</li>", page.split('class="source-notes"')[1])]
    marks = re.findall(r'<sup class="source-mark" title="Source: ([^"]*)">(\d+)</sup>', page)
    assert marks, game_id
    for label, number in marks:
        assert notes[int(number) - 1] == html.unescape(label)
    listed = [e for phase in phases(game) for e in [phase.entry, *(s.entry for s in phase.steps)]]
    for entry in listed:
        assert " · ".join(map(str, entry.sources)) in notes, (game_id, entry.id)
    assert len(notes) == len(set(notes))
