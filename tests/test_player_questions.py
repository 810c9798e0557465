"""Players' own questions find the rule that answers them: the thresholds search is held to.

The questions (tests/player_questions/, in batches) were written the way players ask, before
search was tuned on them; part of each batch is held back and never tuned on. The whole set
must meet the thresholds, and each batch's held-back part come within five points of them.
bench/search_quality.py prints the same figures in full.
"""
import pytest
import yaml

from bench.search_quality import BATCHES, load_questions, question_files, scores
from webapp.calculators import CALCULATORS
from webapp.state import state_of
from webapp.content import GAME_IDS

# (filtered, measure): least share, for the whole set
THRESHOLDS = {(True, "top1"): 0.85, (True, "top3"): 0.95, (False, "top3"): 0.90}
HELD_OUT_MARGIN = 0.05  # a held-back part may fall short of a threshold by at most this


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
        assert [bool(item.get("held_out")) for item in items] == [i % every == every - 1 for i in range(len(items))], path


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


@pytest.mark.parametrize("filtered, measure", list(THRESHOLDS), ids=lambda v: str(v))
def test_the_whole_set_meets_the_threshold(table, filtered, measure):
    score = table[("all", filtered)]
    assert getattr(score, measure) >= THRESHOLDS[(filtered, measure)], (score.top1, score.top3)


# Held-back parts known to fall short, as the README's search-quality table reports them.
# Each must keep failing: once search meets the floor the mark goes (strict).
SHORT_OF_THE_FLOOR = {
    (3, True, "top1"): "batch 3's held-back top-1 with the game filter is under 80%",
}


def held_back_cases():
    for batch in BATCHES:
        for filtered, measure in THRESHOLDS:
            reason = SHORT_OF_THE_FLOOR.get((batch, filtered, measure))
            marks = [pytest.mark.xfail(reason=reason, strict=True)] if reason else []
            yield pytest.param(batch, filtered, measure, marks=marks, id=f"{batch}-{filtered}-{measure}")


@pytest.mark.parametrize("batch, filtered, measure", list(held_back_cases()))
def test_held_back_questions_come_within_five_points(table, batch, filtered, measure):
    score = table[(f"{batch} held out", filtered)]
    assert getattr(score, measure) >= THRESHOLDS[(filtered, measure)] - HELD_OUT_MARGIN, (score.top1, score.top3)
