"""The content loader accepts the real content and rejects broken files with useful messages."""
import re

import pytest
import yaml
from click.testing import CliRunner
from flask import url_for

from webapp import create_app
from webapp.state import state_of
from webapp.cli import main as redbook
from webapp.content import GAME_IDS, ContentError
from webapp.library import read_library


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


def test_every_deep_link_is_the_url_its_route_builds(app, library):
    """The content's own links (search results, ref: links in rule text) are the app's routes."""
    with app.test_request_context():
        for game in library.games.values():
            assert game.url == url_for("main.game_page", game_id=game.id)
        for section in library.sections():
            assert section.url == url_for("main.section_page", game_id=section.game, section_id=section.id)
        for section, entry in library.entries():
            assert entry.url == url_for("main.section_page", game_id=section.game, section_id=section.id,
                                        _anchor=entry.id)
            for ref in entry.see:
                assert ref.url == url_for("main.section_page", game_id=ref.game, section_id=ref.section,
                                          _anchor=ref.anchor or None)


def test_sequence_steps_have_short_titles(library):
    for game in library.games.values():
        for section in game.turn:
            for entry in section.walk():
                assert len(entry.short or entry.title) <= 60, (game.id, entry.id)


def first_sequence_file(root):
    game = yaml.safe_load((root / "wotr" / "game.yaml").read_text())
    return root / "wotr" / f"{game['turn'][0]['section']}.yaml"


def mutate(path, change):
    data = yaml.safe_load(path.read_text())
    change(data)
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))


def problems_for(root):
    with pytest.raises(ContentError) as caught:
        read_library(root)
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


def test_bytes_that_are_not_utf8_name_the_file_and_line(content_copy):
    path = first_sequence_file(content_copy)
    lines = path.read_bytes().split(b"\n")
    lines[4] = b"# caf\xe9 in Latin-1"  # a comment, so only the encoding is wrong
    path.write_bytes(b"\n".join(lines))
    problems = problems_for(content_copy)
    assert f"content/wotr/{path.name}: line 5: not valid UTF-8 (byte 0xe9 at column 6): save it as UTF-8" in problems
    result = CliRunner().invoke(redbook, ["check-content", "--content", str(content_copy)])
    assert result.exit_code == 1 and f"content/wotr/{path.name}: line 5: not valid UTF-8" in result.output


def test_every_entry_carries_the_questions_players_ask(library):
    for _, entry in library.entries():
        assert 3 <= len(entry.asked) <= 8, entry.id


def test_an_entry_without_asked_questions_is_rejected(content_copy):
    path = first_sequence_file(content_copy)
    mutate(path, lambda d: d["entries"][0].pop("asked"))
    problems = problems_for(content_copy)
    assert any(f"{path.name}: entries[0].asked: " in p and "needs 3 to 8 questions" in p for p in problems), problems


def test_too_many_asked_questions_and_html_in_one_are_rejected(content_copy):
    path = first_sequence_file(content_copy)

    def overfill(d):
        d["entries"][0]["asked"] = [f"question number {n}?" for n in range(9)]
        d["entries"][1]["asked"][0] = "what does <b>this</b> mean?"

    mutate(path, overfill)
    problems = problems_for(content_copy)
    assert any("entries[0].asked: has 9 questions; give 3 to 8" in p for p in problems), problems
    assert any("entries[1].asked[0]: raw HTML <b>" in p for p in problems), problems


def test_a_section_may_list_questions_about_the_whole_of_it_within_the_count(content_copy):
    path = first_sequence_file(content_copy)
    mutate(path, lambda d: d.update(asked=["what happens in a whole round?", "round order?"]))
    problems = problems_for(content_copy)
    assert any(p.startswith(f"content/wotr/{path.name}: asked: has 2 questions; give 3 to 8") for p in problems), problems
    mutate(path, lambda d: d["asked"].append("what comes first in a round?"))
    section = read_library(content_copy).games["wotr"].sections[path.stem]
    assert section.asked[-1] == "what comes first in a round?"


def test_a_question_asked_under_two_entries_is_rejected(content_copy):
    path = first_sequence_file(content_copy)

    def repeat(d):
        d["entries"][1]["asked"][0] = d["entries"][0]["asked"][0].upper() + " "

    mutate(path, repeat)
    problems = problems_for(content_copy)
    assert any("entries[1].asked[0]:" in p and "is already asked of wotr:" in p for p in problems), problems


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


def drop_from_sources(root, game_id, entry_id):
    """Remove an entry id from every rule of a game's sources.yaml."""
    def drop(data):
        rules = [rule for section in data["sections"] for rule in section["rules"]] + data.get("rulebook", [])
        for rule in rules:
            rule["ids"] = [ref for ref in rule["ids"] if ref != entry_id]

    mutate(root / game_id / "sources.yaml", drop)


def test_entry_whose_source_is_removed_is_rejected_naming_file_and_entry(content_copy):
    drop_from_sources(content_copy, "wotr", "round-leader-reroll")
    problems = problems_for(content_copy)
    assert problems == [
        "content/wotr/combat-round.yaml: entries[3]: 'round-leader-reroll' has no source: map a rule to it "
        "in sources.yaml, or say how it is derived in a 'source' key"
    ], problems


def test_check_content_command_fails_on_an_entry_without_a_source(content_copy):
    drop_from_sources(content_copy, "wotr", "round-leader-reroll")
    result = CliRunner().invoke(redbook, ["check-content", "--content", str(content_copy)])
    assert result.exit_code == 1
    assert "content/wotr/combat-round.yaml: entries[3]: 'round-leader-reroll' has no source" in result.output


def test_term_whose_derived_source_is_removed_is_rejected(content_copy):
    path = content_copy / "wotr-cards" / "glossary.yaml"
    index = next(i for i, t in enumerate(yaml.safe_load(path.read_text())["terms"]) if t.get("source"))
    mutate(path, lambda d: d["terms"][index].pop("source"))
    problems = problems_for(content_copy)
    assert len(problems) == 1 and problems[0].startswith(f"content/wotr-cards/glossary.yaml: terms[{index}]: "), problems
    assert "has no source" in problems[0]


def test_new_entry_without_a_source_is_rejected(content_copy):
    path = first_sequence_file(content_copy)
    mutate(path, lambda d: d["entries"].append({"id": "brand-new-step", "title": "A new step"}))
    problems = problems_for(content_copy)
    assert any(p.startswith(f"content/wotr/{path.name}: entries[") and "'brand-new-step' has no source" in p
               for p in problems), problems


def test_new_entry_with_a_derived_source_loads_and_shows_it(content_copy):
    path = first_sequence_file(content_copy)
    mutate(path, lambda d: d["entries"].append(
        {"id": "brand-new-step", "title": "A new step", "source": "steps 2 and 3 of the summary, together",
         "asked": ["what is the new step?", "new step when?", "do we ever skip the new step?"]}))
    entry = read_library(content_copy).games["wotr"].lookup("brand-new-step")
    assert [str(source) for source in entry.sources] == ["Derived: steps 2 and 3 of the summary, together"]


def test_source_key_on_an_entry_already_mapped_is_rejected(content_copy):
    path = first_sequence_file(content_copy)
    mutate(path, lambda d: d["entries"][1].update(source="twice"))
    problems = problems_for(content_copy)
    assert any(f"{path.name}: entries[1].source: '" in p and "already has its source in sources.yaml" in p
               for p in problems), problems


def test_sources_naming_an_unknown_entry_or_a_bad_key_are_rejected(content_copy):
    def break_sources(data):
        data["sections"][0]["rules"][0]["ids"].append("no-such-rule")
        data["sections"][1]["pages"] = 3

    mutate(content_copy / "meq" / "sources.yaml", break_sources)
    problems = problems_for(content_copy)
    assert any(p.startswith("content/meq/sources.yaml: sections[0].rules[0].ids[") and "no entry, term or section 'no-such-rule'" in p
               for p in problems), problems
    assert any(p.startswith("content/meq/sources.yaml: sections[1].pages: unknown key") for p in problems), problems


def test_missing_sources_file_is_rejected(content_copy):
    (content_copy / "fotf" / "sources.yaml").unlink()
    problems = problems_for(content_copy)
    assert any(p.startswith("content/fotf/sources.yaml: cannot be read") for p in problems), problems


def test_sources_group_summary_sections_then_rulebook(library):
    entry = library.games["meccg"].lookup("influence-attempts")
    assert [source.kind for source in entry.sources] == ["summary", "rulebook"]
    assert str(entry.sources[0]) == "Summary: Influence Attempts"
    assert str(entry.sources[1]) == "Published rulebook (not in the summary)"


def test_content_readme_documents_every_key_the_loader_accepts(content_dir):
    from webapp import content

    readme = (content_dir / "README.md").read_text(encoding="utf-8")
    specs = [content.GAME_KEYS, content.CHECKLIST_KEYS, content.SECTION_KEYS, content.ENTRY_KEYS, content.TERM_KEYS,
             content.TABLE_KEYS, content.SOURCES_KEYS, content.SOURCE_SECTION_KEYS, content.SOURCE_RULE_KEYS,
             content.FOTF_DICE_KEYS]
    missing = sorted({key for spec in specs for key in spec if f"`{key}`" not in readme and f"{key}:" not in readme})
    assert not missing, f"content/README.md does not document {missing}"


def test_check_content_names_the_file_and_key_when_a_die_has_seven_faces(content_copy):
    path = content_copy / "fotf" / "data" / "dice.yaml"
    mutate(path, lambda d: d["search"].update(slip_by=d["search"]["slip_by"] + 1))
    result = CliRunner().invoke(redbook, ["check-content", "--content", str(content_copy)])
    assert result.exit_code == 1
    assert "content/fotf/data/dice.yaml: search: the faces total 7; a die has 6 faces" in result.output


def test_the_app_reads_the_dice_from_its_own_content_folder(content_copy, tmp_path):
    path = content_copy / "fotf" / "data" / "dice.yaml"
    mutate(path, lambda d: d.update(search={"slip_by": 6, "weary": 0, "exposed": 0, "recall": 0}))
    app = create_app({"CONTENT_DIR": str(content_copy), "INSTANCE_PATH": str(tmp_path / "instance")})
    calc = state_of(app).calculators["fotf-search"]
    client = app.test_client()
    form = client.get("/fotf/calc/search").get_data(as_text=True)
    for name, count in {"slip_by": 6, "weary": 0, "exposed": 0, "recall": 0}.items():
        assert re.search(rf'name="{name}" value=""[^>]* placeholder="e.g. {count}"', form)  # this copy's counts, as examples
    answer = client.get("/fotf/calc/search", query_string=calc.form_query()).get_data(as_text=True)
    # every face of this copy's search die slips by: no hope is ever lost
    assert "100% to lose no hope." in answer


def test_an_unknown_data_file_is_rejected(content_copy):
    (content_copy / "meq" / "data").mkdir()
    (content_copy / "meq" / "data" / "track.yaml").write_text("spaces: 40\n")
    problems = problems_for(content_copy)
    assert "content/meq/data/track.yaml: unknown data file (known for meq: none)" in problems


def test_each_checklist_names_what_one_pass_is_called(library):
    for game in library.games.values():
        assert [c.section for c in game.checklists] == game.turn
        for checklist in game.checklists:
            assert checklist.name and checklist.name.lower() in ("turn", "round", "combat round", "sauron turn",
                                                                 "hero turn", "path combat", "battleground combat")
        assert game.turn_name in ("turn", "round", "combat round"), game.id


@pytest.mark.parametrize("change, message", [
    (lambda t: t[0].pop("name"), "turn[0]: missing required key 'name'"),
    (lambda t: t[0].update(section="terrain"), "turn[0].section: section 'terrain' must be of kind sequence"),
    (lambda t: t[0].update(section="nowhere"), "turn[0].section: no section 'nowhere'"),
    (lambda t: t[0].update(seats=["Attacker", "Defender"]), "turn[0]: seats and seat_label go together"),
    (lambda t: t.append(dict(t[0])), "turn[1].section: section 'combat-round' is already a checklist"),
    (lambda t: t.__setitem__(0, "combat-round"), "turn[0]: must be a mapping with section and name"),
])
def test_broken_turn_checklists_are_rejected(content_copy, change, message):
    mutate(content_copy / "wotr" / "game.yaml", lambda d: change(d["turn"]))
    problems = problems_for(content_copy)
    assert any(p.startswith("content/wotr/game.yaml: ") and message in p for p in problems), problems


def test_a_checklist_needs_a_step_that_always_happens(content_copy):
    def all_optional(section):
        for phase in section["entries"]:
            phase["flags"] = sorted(set(phase.get("flags", [])) | {"optional"})

    mutate(first_sequence_file(content_copy), all_optional)
    problems = problems_for(content_copy)
    assert "content/wotr/game.yaml: turn[0].section: section 'combat-round' needs a step that is neither optional, conditional nor not-first" in problems



# --- What a player reads ---------------------------------------------------------------------------

# Words that speak of how the rules were put together rather than of the game: a bare "the summary"
# or "the source" (the small-print "Summary: <section>" source line is meant, and is not scanned),
# "this copy", "these pages", file names, query strings and data terms.
NOT_PLAYERS_WORDS = re.compile(
    r"(?<!rules )\bthe (?:summary|source)\b|\bthis copy\b|\b(?:these|this) pages?\b|\blost in\b|\.ya?ml\b|\.txt\b"
    r"|\bcontent/|\?\w+=|\bgame data\b|\bdata file\b|\bjson\b|\bendpoint\b|\bquery\b|\bparameter\b", re.I)


def player_texts(game):
    """Everything of a game's content a player reads, with where it comes from."""
    yield "source", game.source_html
    yield "summary", game.summary_html
    for checklist in game.checklists:
        yield f"{checklist.section.id} checklist note", checklist.note
    for section in game.sections.values():
        yield section.id, f"{section.title} {section.summary} {section.text}"
        for entry in section.walk():
            yield entry.id, f"{entry.title} {entry.short} {entry.when} {entry.text}"
            yield from ((f"{entry.id} source", str(s)) for s in entry.sources if s.kind == "derived")


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_rules_text_speaks_to_players_not_of_how_it_was_made(library, game_id):
    found = [f"{where}: ...{text[max(0, m.start() - 40):m.end() + 20]}..."
             for where, text in player_texts(library.games[game_id]) for m in NOT_PLAYERS_WORDS.finditer(text)]
    assert found == [], "\n".join(found)


@pytest.mark.parametrize("text, caught", [
    ("spend 1 symbol (icon lost in this copy)", True), ("The summary says only that", True),
    ("These pages say so", True), ("see /meq/glossary?view=topics", True), ("the source disagrees", True),
    ("The rules summary does not name it", False), ("Summary: Sauron turn, 2. Story", False),
])
def test_the_players_words_check_can_fail(text, caught):
    assert bool(NOT_PLAYERS_WORDS.search(text)) is caught


def test_fate_of_the_fellowship_costs_say_what_is_spent(library):
    # "spend 1" alone leaves a player asking "1 what?": every cost names symbols, and where the
    # game shows which symbol only by an icon, the text says the rules summary does not name it
    bare_cost = re.compile(r"\bspend (?:\*\*)?\d+(?:\*\*)?(?! ?\**symbols?)")
    game = library.games["fotf"]
    for section in game.sections.values():
        for entry in section.walk():
            for text in (entry.short, entry.body):
                assert not bare_cost.search(text), (entry.id, text)
    for entry_id in ("muster", "capture", "frodo-travel", "destroy-the-ring-action", "destroying-the-one-ring"):
        entry = game.entries[entry_id]
        assert "symbol" in (entry.short or entry.title) + entry.text, entry_id
        assert "icon that the rules summary does not name" in re.sub(r"\s+", " ", entry.text), entry_id
    assert game.entries["muster"].short == "Muster: spend 1 symbol, add 1 troop"
    assert "3 symbols" in game.entries["capture"].short


def test_glossary_terms_are_capitalised_alike_in_every_game(library):
    for game in library.games.values():
        terms = [term.title for term in game.sections["glossary"].entries]
        assert terms and [t for t in terms if not t[:1].isupper()] == [], game.id


# --- Steps of every pass but the first ------------------------------------------------------------

def test_a_when_line_goes_only_with_a_conditional_or_not_first_step(content_copy):
    path = first_sequence_file(content_copy)

    def give_when(section):
        section["entries"][0]["when"] = "Sometimes"
        section["entries"][0]["flags"] = ["not-first"]
        section["entries"][1]["when"] = "Sometimes"
        section["entries"][1]["flags"] = ["optional"]

    mutate(path, give_when)
    problems = problems_for(content_copy)
    assert [p for p in problems if ".when" in p] == [
        "content/wotr/combat-round.yaml: entries[1].when: only a step flagged conditional or not-first has a 'when'"]


def test_a_checklist_needs_a_step_of_its_first_pass_too(content_copy):
    def every_pass_but_the_first(section):
        for phase in section["entries"]:
            flags = set(phase.get("flags", [])) - {"optional", "conditional"}
            phase["flags"] = sorted(flags | {"not-first"})

    mutate(first_sequence_file(content_copy), every_pass_but_the_first)
    problems = problems_for(content_copy)
    assert "content/wotr/game.yaml: turn[0].section: section 'combat-round' needs a step that is neither optional, conditional nor not-first" in problems


def test_content_readme_documents_every_flag_and_section_kind(content_dir):
    from webapp.content.schema import FLAGS, SECTION_KINDS, WHEN_FLAGS

    readme = (content_dir / "README.md").read_text(encoding="utf-8")
    flags_row = next(line for line in readme.splitlines() if line.startswith("| `flags` |"))
    assert sorted(re.findall(r"`([a-z-]+)`", flags_row)[1:]) == sorted(FLAGS)
    when_row = next(line for line in readme.splitlines() if line.startswith("| `when` |"))
    assert sorted(re.findall(r"`([a-z-]+)`", when_row)[1:]) == sorted(WHEN_FLAGS)
    kind_row = next(line for line in readme.splitlines() if line.startswith("| `kind` |"))
    assert sorted(re.findall(r"`([a-z-]+)`", kind_row)[1:]) == sorted(SECTION_KINDS)


def test_every_flag_the_content_uses_is_shown_by_its_label(client, library):
    from webapp.content.schema import FLAGS

    used = {(entry.game, entry.section, flag) for _, entry in library.entries() for flag in entry.flags}
    assert {flag for _, _, flag in used} <= set(FLAGS)
    for flag, label in (("not-first", "not first"), ("simultaneous", "at the same time")):
        game, section, _ = next(item for item in sorted(used) if item[2] == flag)
        page = client.get(f"/{game}/{section}").get_data(as_text=True)
        assert f'<span class="flag">{label}</span>' in page, flag


def test_raw_html_in_rule_text_is_rejected_naming_the_file_and_the_entry(content_copy):
    path = first_sequence_file(content_copy)
    entry_id = yaml.safe_load(path.read_text())["entries"][0]["id"]
    mutate(path, lambda d: d["entries"][0].update(body="Roll the dice, then <b>stop</b>."))
    glossary = content_copy / "meccg" / "glossary.yaml"
    term_id = yaml.safe_load(glossary.read_text())["terms"][2]["id"]
    mutate(glossary, lambda d: d["terms"][2].update(body="A term <script>alert(1)</script> with `<code>` kept."))
    mutate(content_copy / "meq" / "game.yaml", lambda d: d.update(summary=d["summary"] + "\n\n<img src=x onerror=alert(1)>"))
    expected = [
        f"content/wotr/{path.name}: entries[0].body: raw HTML <b>, </b> in the text of '{entry_id}'",
        f"content/meccg/glossary.yaml: terms[2].body: raw HTML <script>, </script> in the text of '{term_id}'",
        "content/meq/game.yaml: summary: raw HTML <img src=x onerror=alert(1)> in the text",
    ]
    problems = problems_for(content_copy)  # as the app loads it
    for line in expected:
        assert any(problem.startswith(line) for problem in problems), (line, problems)
    assert not any("<code>" in problem for problem in problems), "code spans are text, not HTML"
    result = CliRunner().invoke(redbook, ["check-content", "--content", str(content_copy)])
    assert result.exit_code == 1
    for line in expected:
        assert line in result.output


def test_autolinks_and_angle_brackets_in_rule_text_are_not_html(content_copy):
    path = first_sequence_file(content_copy)
    mutate(path, lambda d: d["entries"][0].update(body="Roll 3 < 5 dice; see <https://example.org/rules>."))
    assert read_library(content_copy).games["wotr"].lookup(yaml.safe_load(path.read_text())["entries"][0]["id"])
