"""Players' own questions find the rule that answers them: the thresholds search is held to.

The questions (tests/player_questions/, in batches) were written the way players ask, before
search was tuned on them; a part of most batches is held back and never tuned on (all of batches 4
to 6 and 8, half of batches 2, 3 and 9 to 11, a third of batch 1, none of batch 7; batches 4 to 11 name
each question's voice, batch 11 first-time players only). The whole set must meet the thresholds; each batch's
held-back part, with the game filter, top-1 >= 85% and top-3 >= 95%, and each voice top-1 >= 75%.
A part known to fall short is marked so (strict: the mark must go once it is met), as
docs/search.md reports it. bench/search_quality.py prints the same figures in full.
"""
import pytest
import yaml

from bench.search_quality import BATCHES, VOICES, load_questions, question_files, scores
from webapp.calculators import CALCULATORS
from webapp.content import GAME_IDS
from webapp.state import state_of

# (filtered, measure): least share, for the whole set
THRESHOLDS = {(True, "top1"): 0.85, (True, "top3"): 0.95, (False, "top3"): 0.90}
# (filtered, measure): least share, for each batch's held-back part
HELD_BACK = {(True, "top1"): 0.85, (True, "top3"): 0.95, (False, "top3"): 0.85}
VOICE_TOP1 = 0.75  # least top-1 with the filter, for the held-back questions of each voice


@pytest.fixture(scope="module")
def table(app):
    return scores(app)


@pytest.mark.parametrize("batch", list(BATCHES))
def test_every_batch_asks_thirty_questions_a_game_and_holds_back_its_share(batch):
    files = [path for number, path in question_files() if number == batch]
    assert {path.stem for path in files} == set(GAME_IDS)
    every = BATCHES[batch][1]
    for path in files:
        items = yaml.safe_load(path.read_text())
        assert len(items) >= 30, path
        held_back = [bool(every) and i % every == every - 1 for i in range(len(items))]
        assert [bool(item.get("held_out")) for item in items] == held_back, path
        assert all(item.get("voice", VOICES[0]) in VOICES for item in items), path


def test_batch_four_held_back_whole_speaks_in_every_voice_a_third_of_it_at_length():
    held = [q for q in load_questions() if q.batch == 4]
    assert len(held) >= 200 and all(q.held_out for q in held)
    assert {q.voice for q in held} == set(VOICES)
    assert sum(q.voice == "chatty" for q in held) >= len(held) / 3 - 1


def test_batch_five_held_back_whole_gives_every_voice_its_share_of_each_game():
    held = [q for q in load_questions() if q.batch == 5]
    assert len(held) == 150 and all(q.held_out for q in held)
    for game in GAME_IDS:
        voices = [q.voice for q in held if q.game == game]
        assert sorted(voices) == sorted(VOICES * 5), game
    assert all(len(q.text) >= 250 for q in held if q.voice == "chatty")


def test_batch_six_held_back_whole_is_two_hundred_in_every_voice_a_third_of_it_at_length():
    held = [q for q in load_questions() if q.batch == 6]
    assert len(held) >= 200 and all(q.held_out for q in held)
    for game in GAME_IDS:
        assert {q.voice for q in held if q.game == game} == set(VOICES), game
    assert sum(q.voice == "chatty" or len(q.text) > 250 for q in held) >= len(held) / 3


@pytest.mark.parametrize("number", [9, 10])
def test_batches_nine_and_ten_hold_back_half_in_every_voice_of_every_game(number):
    batch = [q for q in load_questions() if q.batch == number]
    held = [q for q in batch if q.held_out]
    assert len(batch) >= 345 and len(held) >= 170
    for game in GAME_IDS:
        assert {q.voice for q in held if q.game == game} == set(VOICES), game
        assert {q.voice for q in batch if q.game == game and not q.held_out} == set(VOICES), game
    assert all(250 <= len(q.text) <= 900 for q in batch if q.voice == "chatty")


def test_batch_eleven_holds_back_half_of_its_first_time_players_in_every_game():
    batch = [q for q in load_questions() if q.batch == 11]
    assert len(batch) >= 195 and {q.voice for q in batch} == {"first-time"}
    for game in GAME_IDS:
        asked = [q for q in batch if q.game == game]
        assert len(asked) >= 38 and sum(q.held_out for q in asked) == len(asked) // 2, game


def test_no_question_is_asked_twice():
    texts = [question.text.lower() for question in load_questions()]
    assert len(texts) >= 350 and len(set(texts)) == len(texts)


def test_every_expected_id_exists(app):
    library = state_of(app).library
    calculators = {f"{c.game}:calc/{c.slug}" for c in CALCULATORS.values()}
    for question in load_questions():
        for full in question.expect:
            game, _, entry = full.partition(":")
            assert full in calculators or library.games[game].lookup(entry) is not None, (question.text, full)


# Parts known to fall short, as docs/search.md reports them. Each must keep failing: once
# search meets the floor the mark goes (strict).
SHORT_OF_THE_FLOOR = {
    ("all", True, "top1"): "the whole set's top-1 with the game filter is under 85%",
    (1, True, "top1"): "batch 1's held-back top-1 with the game filter is under 85%",
    (3, True, "top1"): "batch 3's held-back top-1 with the game filter is under 85%",
    (3, True, "top3"): "batch 3's held-back top-3 with the game filter is under 95%",
    (6, True, "top1"): "batch 6's top-1 with the game filter is under 85%",
    (9, True, "top1"): "batch 9's held-back top-1 with the game filter is under 85%",
    (9, True, "top3"): "batch 9's held-back top-3 with the game filter is under 95%",
    (10, True, "top1"): "batch 10's held-back top-1 with the game filter is under 85%",
    (10, True, "top3"): "batch 10's held-back top-3 with the game filter is under 95%",
    (11, True, "top1"): "batch 11's held-back top-1 with the game filter is under 85%",
    (11, True, "top3"): "batch 11's held-back top-3 with the game filter is under 95%",
    ("first-time", True, "top1"): "first-time players' held-back questions find their rule first under 75% of the time",
}


def marked(key, *values, id):
    reason = SHORT_OF_THE_FLOOR.get(key)
    return pytest.param(*values, marks=[pytest.mark.xfail(reason=reason, strict=True)] if reason else [], id=id)


@pytest.mark.parametrize("filtered, measure", [marked(("all", *key), *key, id=str(key)) for key in THRESHOLDS])
def test_the_whole_set_meets_the_threshold(table, filtered, measure):
    score = table[("all", filtered)]
    assert getattr(score, measure) >= THRESHOLDS[(filtered, measure)], (score.top1, score.top3)


@pytest.mark.parametrize("batch, filtered, measure", [
    marked((batch, filtered, measure), batch, filtered, measure, id=f"{batch}-{filtered}-{measure}")
    for batch in BATCHES if BATCHES[batch][1] for filtered, measure in HELD_BACK])
def test_each_batch_held_back_meets_the_floor(table, batch, filtered, measure):
    score = table[(f"{batch} held out", filtered)]
    assert getattr(score, measure) >= HELD_BACK[(filtered, measure)], (score.top1, score.top3)


@pytest.mark.parametrize("voice", [marked((voice, True, "top1"), voice, id=voice) for voice in VOICES])
def test_every_voice_held_back_meets_the_floor(table, voice):
    score = table[(f"voice {voice}", True)]
    assert score.top1 >= VOICE_TOP1, (score.top1, score.top3)
