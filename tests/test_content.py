"""The content loader accepts the real content and rejects broken files with useful messages."""
import pytest
import yaml
from click.testing import CliRunner

from webapp.cli import main as redbook
from webapp.content import GAME_IDS, ContentError, load_library
from conftest import CONTENT


@pytest.fixture(scope="module")
def library():
    return load_library(CONTENT)


def test_real_content_loads_every_game(library):
    assert list(library.games) == list(GAME_IDS)
    for game in library.games.values():
        assert game.sections, game.id
        assert game.turn, f"{game.id} has no turn sequence"
        assert all(section.kind == "sequence" for section in game.turn)


def test_check_content_command_passes_on_real_content():
    result = CliRunner().invoke(redbook, ["check-content"])
    assert result.exit_code == 0, result.output
    assert "content OK: 5 games" in result.output


def test_every_entry_has_a_deep_link(library):
    for section, entry in library.entries():
        target = entry or section
        assert target.url.startswith(f"/{section.game}/{section.id}")
        if entry is not None:
            assert target.url.endswith(f"#{entry.id}")


def test_sequence_steps_have_short_titles(library):
    for game in library.games.values():
        for section in game.turn:
            for entry in section.walk():
                assert len(entry.short or entry.title) <= 60, (game.id, entry.id)


def first_sequence_file(root):
    game = yaml.safe_load((root / "wotr" / "game.yaml").read_text())
    return root / "wotr" / f"{game['turn'][0]}.yaml"


def mutate(path, change):
    data = yaml.safe_load(path.read_text())
    change(data)
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))


def problems_for(root):
    with pytest.raises(ContentError) as caught:
        load_library(root)
    return caught.value.problems


def test_unknown_key_is_named_with_file_and_path(content_copy):
    path = first_sequence_file(content_copy)
    mutate(path, lambda d: d["entries"][0].update(colour="red"))
    problems = problems_for(content_copy)
    assert any(p.startswith(f"content/wotr/{path.name}: entries[0].colour: unknown key") for p in problems), problems


def test_missing_id_is_rejected(content_copy):
    path = first_sequence_file(content_copy)
    mutate(path, lambda d: d["entries"][1].pop("id"))
    problems = problems_for(content_copy)
    assert any(f"{path.name}: entries[1]: missing required key 'id'" in p for p in problems), problems


def test_duplicate_id_is_rejected(content_copy):
    path = first_sequence_file(content_copy)

    def duplicate(d):
        d["entries"][1]["id"] = d["entries"][0]["id"]

    mutate(path, duplicate)
    problems = problems_for(content_copy)
    assert any("entries[1].id: duplicate id" in p for p in problems), problems


def test_broken_cross_reference_is_rejected(content_copy):
    path = first_sequence_file(content_copy)
    mutate(path, lambda d: d["entries"][0].update(see=["no-such-rule"]))
    problems = problems_for(content_copy)
    assert any("entries[0].see: broken reference 'no-such-rule'" in p for p in problems), problems


def test_broken_markdown_reference_is_rejected(content_copy):
    path = first_sequence_file(content_copy)
    mutate(path, lambda d: d["entries"][0].update(body="See [this](ref:meccg:nowhere)."))
    problems = problems_for(content_copy)
    assert any("entries[0].body: broken reference 'meccg:nowhere'" in p for p in problems), problems


def test_unknown_calculator_and_flag_are_rejected(content_copy):
    path = first_sequence_file(content_copy)
    mutate(path, lambda d: d["entries"][0].update(calculator="crystal-ball", flags=["sometimes"]))
    problems = problems_for(content_copy)
    assert any("entries[0].calculator: unknown calculator 'crystal-ball'" in p for p in problems), problems
    assert any("entries[0].flags: unknown flag 'sometimes'" in p for p in problems), problems


def test_table_with_wrong_row_length_is_rejected(content_copy):
    path = first_sequence_file(content_copy)
    mutate(path, lambda d: d["entries"][0].update(table={"columns": ["a", "b"], "rows": [["1"]]}))
    problems = problems_for(content_copy)
    assert any("entries[0].table.rows[0]: has 1 cells; the table has 2 columns" in p for p in problems), problems


def test_invalid_yaml_names_the_line(content_copy):
    path = first_sequence_file(content_copy)
    path.write_text(path.read_text() + "\n  - : [unclosed\n")
    problems = problems_for(content_copy)
    assert any(p.startswith(f"content/wotr/{path.name}: line ") and "not valid YAML" in p for p in problems), problems


def test_section_file_not_listed_is_rejected(content_copy):
    (content_copy / "meq" / "stray.yaml").write_text("id: stray\n")
    problems = problems_for(content_copy)
    assert "content/meq/stray.yaml: not listed in game.yaml sections" in problems


def test_check_content_command_fails_on_broken_content(content_copy):
    path = first_sequence_file(content_copy)
    mutate(path, lambda d: d["entries"][0].update(colour="red"))
    result = CliRunner().invoke(redbook, ["check-content", "--content", str(content_copy)])
    assert result.exit_code == 1
    assert "entries[0].colour: unknown key" in result.output
