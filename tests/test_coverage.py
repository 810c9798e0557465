"""Every rule of every source summary maps to content that exists."""
from pathlib import Path

import pytest
import yaml

from webapp import PROJECT_ROOT
from webapp.content import GAME_IDS, load_library
from conftest import CONTENT

LISTS = {p.stem: yaml.safe_load(p.read_text()) for p in sorted((Path(__file__).parent / "coverage").glob("*.yaml"))}
SEEDS = PROJECT_ROOT.parent / "shared" / "seeds"
LIBRARY = load_library(CONTENT)


def test_every_game_has_a_coverage_list():
    assert set(LISTS) == set(GAME_IDS)
    for game_id, data in LISTS.items():
        assert data["game"] == game_id
        assert len(data["rules"]) >= 25, game_id


@pytest.mark.skipif(not SEEDS.is_dir(), reason="source summaries are not beside the project")
def test_coverage_lists_name_real_seed_files():
    for data in LISTS.values():
        assert (SEEDS / data["seed"]).is_file(), data["seed"]


@pytest.mark.parametrize("game_id, rule, entry_id", [
    pytest.param(game_id, item["rule"], item["id"], id=f"{game_id}:{item['id']}:{i}")
    for game_id, data in LISTS.items() for i, item in enumerate(data["rules"])
])
def test_seed_rule_resolves_to_content(client, game_id, rule, entry_id):
    game = LIBRARY.games[game_id]
    target = game.lookup(entry_id)
    assert target is not None, f"{rule!r} -> {entry_id} does not exist"
    page = client.get(target.url.split("#")[0])
    assert page.status_code == 200
    assert f'id="{entry_id}"' in page.get_data(as_text=True) or target.url.endswith(f"/{entry_id}")
