"""The player vocabulary is validated with the content, each problem named by file and key."""
import pytest
import yaml
from click.testing import CliRunner

from webapp.cli import main as redbook
from test_content import problems_for

FILE = "content/vocabulary.yaml"


def change(root, edit):
    path = root / "vocabulary.yaml"
    data = yaml.safe_load(path.read_text())
    edit(data)
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))


def test_the_real_vocabulary_loads_for_every_game(library):
    vocabulary = library.vocabulary
    assert vocabulary.filler and len(vocabulary.calculators) == 13
    for game in library.games:
        table = vocabulary.for_game(game)
        assert len(table) >= 20, game
    assert vocabulary.for_game("wotr")["run away"] == ("retreat",)


def test_a_games_own_words_replace_the_shared_ones(library):
    shared = library.vocabulary.for_game("meq")["killed"]
    assert shared == ("defeated",)  # Middle-earth Quest's own entry
    assert library.vocabulary.for_game("meccg")["killed"] == ("eliminated", "defeated")  # shared, as meccg says it


def test_a_shared_rewrite_gives_each_game_only_the_rules_words_it_uses(library):
    vocabulary = library.vocabulary
    assert vocabulary.for_game("meq")["hp"] == ("health",)
    assert vocabulary.for_game("fotf")["hp"] == ("hope",)
    assert "hp" not in vocabulary.for_game("wotr")  # neither word is in its rules


def test_a_rules_word_that_search_drops_is_refused(content_copy):
    change(content_copy, lambda d: d["shared"].append({"players": ["left over"], "rules": ["still"]}))
    count = len(yaml.safe_load((content_copy / "vocabulary.yaml").read_text())["shared"]) - 1
    assert (f"{FILE}: shared[{count}].rules[0]: 'still' is only filler words, which search drops"
            in problems_for(content_copy))


def test_every_rules_word_occurs_in_the_rules_it_points_to(content_dir, content_copy):
    change(content_copy, lambda d: d["wotr"].append({"players": ["teleport"], "rules": ["blink step"]}))
    count = len(yaml.safe_load((content_dir / "vocabulary.yaml").read_text())["wotr"])
    assert (f"{FILE}: wotr[{count}].rules[0]: 'blink step' does not occur in War of the Ring (battles)'s rules"
            in problems_for(content_copy))


@pytest.mark.parametrize("edit, problem", [
    (lambda d: d.update(colour="red"), "colour: unknown key (allowed: filler, numbers, definition, any-calculator, "
                                       "sequence, calculators, shared, wotr"),
    (lambda d: d["shared"][0].update(note="x"), "shared[0].note: unknown key (allowed: players, rules)"),
    (lambda d: d["shared"][0].pop("rules"), "shared[0]: missing required key 'rules'"),
    (lambda d: d["shared"][1].update(players=["flee"]) or d["shared"][0].update(players=["flee"]),
     "shared[1].players[0]: 'flee' is already in shared[0]"),
    (lambda d: d["meq"][0].update(players=["rest"]), "meq[0].players[0]: 'rest' is already a name the rules use"),
    (lambda d: d["fotf"][0].update(players=["a b c d e"]), "fotf[0].players[0]: 'a b c d e' has more than 4 words"),
    (lambda d: d.update(filler=["how", "how many"]), "filler[1]: 'how many' must be one word"),
    (lambda d: d.update(numbers=["one", "twenty one"]), "numbers[1]: 'twenty one' must be one word"),
    (lambda d: d.update(definition="what is"), "definition: must be a non-empty list of text items"),
    (lambda d: d.update(sequence="step by step"), "sequence: must be a non-empty list of text items"),
    (lambda d: d.update(sequence=["from the very start to the end"]),
     "sequence[0]: 'from the very start to the end' has more than 4 words"),
    (lambda d: d["calculators"].update({"crystal-ball": ["odds"]}), "calculators.crystal-ball: unknown calculator"),
    (lambda d: d["shared"][0].update(players="run away"), "shared[0].players: must be a non-empty list of text items"),
])
def test_a_broken_vocabulary_is_named_by_file_and_key(content_copy, edit, problem):
    change(content_copy, edit)
    problems = problems_for(content_copy)
    assert any(p.startswith(f"{FILE}: {problem}") for p in problems), problems


def test_a_missing_vocabulary_is_a_problem(content_copy):
    (content_copy / "vocabulary.yaml").unlink()
    assert any(p.startswith(f"{FILE}: cannot be read") for p in problems_for(content_copy))


def test_a_vocabulary_that_is_not_utf8_names_the_line(content_copy):
    path = content_copy / "vocabulary.yaml"
    path.write_bytes(path.read_bytes() + b"\n# \xff\n")
    line = path.read_bytes().count(b"\n")
    assert f"{FILE}: line {line}: not valid UTF-8 (byte 0xff at column 3): save it as UTF-8" in problems_for(content_copy)


def test_check_content_reports_vocabulary_problems(content_copy):
    change(content_copy, lambda d: d.update(colour="red"))
    result = CliRunner().invoke(redbook, ["check-content", "--content", str(content_copy)])
    assert result.exit_code == 1
    assert f"{FILE}: colour: unknown key" in result.output


@pytest.mark.parametrize("edit, problem", [
    (lambda d: d["games"].update(chess=["chess"]), "games.chess: unknown game"),
    (lambda d: d["games"]["fotf"].append("fellowship"), "games.fotf[3]: 'fellowship' is already a name the rules use"),
    (lambda d: d["games"]["meq"].append("meccg"), "games.meq[3]: 'meccg' is already a name of meccg"),
    (lambda d: d["games"]["meq"].append("a b c d e f g"), "games.meq[3]: 'a b c d e f g' has more than 6 words"),
])
def test_a_broken_list_of_game_names_is_named_by_file_and_key(content_copy, edit, problem):
    change(content_copy, edit)
    problems = problems_for(content_copy)
    assert any(p.startswith(f"{FILE}: {problem}") for p in problems), problems
