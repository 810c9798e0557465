"""Search quality on the player questions (run: python bench/search_quality.py).

Every question in tests/player_questions/ is asked through webapp.search.search, once with its
game's filter and once without, and ranked against the content ids that answer it. The questions
come in batches, each written without looking at search results: batch 1 (<game>.yaml) holds back
every third question from tuning, batches 2, 3 and 9 to 11 (batch-2/, batch-3/, batch-9/, batch-10/,
batch-11/<game>.yaml) every second, batches 4 to 6 and 8 (batch-4/, batch-5/, batch-6/, batch-8/<game>.yaml)
every one; the questions of batches 4 to 11 each name their voice (first-time, numbers, shorthand,
non-native, edge, chatty; batch 11 is first-time players only), and a voice's figures are those of
the held-back questions in it.

- top-1: share of questions whose first result is one of the expected ids;
- top-3: share with an expected id among the first three;
- MRR: mean of 1 / (rank of the first expected id) over the first 10 results (0 if none).

Questions marked `held_out: true` are never used to tune search; the table shows them apart
from the tuning part, batch by batch, then voice by voice. `--ablate` turns each ranking feature
off in turn (its weight 0) and prints the held-back figures without it, how many held-back
questions it moves, and how many of the glossary's names and aliases asked alone ("combat") still
find their term first. `--misses` lists the tuning questions that miss the top 3,
`--tuning-failures` those whose first result does not answer them; held-back ones are never listed.
`--explain "a question" [--game wotr]` prints why it ranks as it does (no question set is read): the
parts search read, and each of the first 10 entries' weighted features and their sum.
"""
from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

QUESTIONS = ROOT / "tests" / "player_questions"
# batch -> (folder below QUESTIONS, every how many-th question of a file is held back; None: none is)
BATCHES = {1: (".", 3), 2: ("batch-2", 2), 3: ("batch-3", 2), 4: ("batch-4", 1), 5: ("batch-5", 1), 6: ("batch-6", 1),
           7: ("batch-7", None), 8: ("batch-8", 1), 9: ("batch-9", 2), 10: ("batch-10", 2),
           11: ("batch-11", 2)}
VOICES = ("first-time", "numbers", "shorthand", "non-native", "edge", "chatty")
DEPTH = 10  # results read for the MRR


@dataclass(frozen=True)
class Question:
    game: str
    text: str
    expect: tuple  # full ids, "game:id"
    held_out: bool
    batch: int
    voice: str = ""  # how it is asked, where the batch says (one of VOICES)


def question_files(folder=QUESTIONS):
    """(batch, path) of every question file, batch by batch; a file is named for its game."""
    return [(batch, path) for batch, (sub, _) in BATCHES.items()
            for path in sorted((Path(folder) / sub).glob("*.yaml"))]


def load_questions(folder=QUESTIONS):
    """Every player question, in file order, its expected ids prefixed with its game."""
    import yaml

    questions = []
    for batch, path in question_files(folder):
        game = path.stem
        for item in yaml.safe_load(path.read_text(encoding="utf-8")):
            questions.append(Question(game=game, text=item["q"], expect=tuple(f"{game}:{e}" for e in item["expect"]),
                                      held_out=bool(item.get("held_out", False)), batch=batch,
                                      voice=item.get("voice", "")))
    return questions


def rank(ids, expect):
    """1-based rank of the first expected id among ``ids``, or None."""
    for position, found in enumerate(ids, 1):
        if found in expect:
            return position
    return None


@dataclass
class Score:
    count: int
    top1: float
    top3: float
    mrr: float
    misses: list  # (question, ids) whose expected ids are not in the top 3
    failures: list  # (question, ids) whose first result is not an expected id
    ranks: tuple = ()  # each question's rank of its first expected id (None: not in the first DEPTH)


def measure(search, questions, filtered):
    """Score ``questions`` with ``search(text, game=..., limit=...)``, with or without each game's filter."""
    ranks, misses, failures = [], [], []
    for question in questions:
        results = search(question.text, game=question.game if filtered else None, limit=DEPTH)
        ids = [hit.id for hit in results.hits]
        where = rank(ids, question.expect)
        ranks.append(where)
        if where is None or where > 3:
            misses.append((question, ids[:3]))
        if where != 1:
            failures.append((question, ids[:3]))
    count = len(questions) or 1
    return Score(len(questions), sum(r == 1 for r in ranks) / count, sum(r is not None and r <= 3 for r in ranks) / count,
                 sum(1 / r for r in ranks if r) / count, misses, failures, tuple(ranks))


def parts_of(questions):
    """{part: questions}: tuning, held out and all, then each batch's tuning and held-back part
    (a part with no questions left out), then each voice's held-back questions."""
    parts = {"tuning": [q for q in questions if not q.held_out], "held out": [q for q in questions if q.held_out],
             "all": questions}
    for batch in sorted({q.batch for q in questions}):
        parts[f"{batch} tuning"] = [q for q in questions if q.batch == batch and not q.held_out]
        parts[f"{batch} held out"] = [q for q in questions if q.batch == batch and q.held_out]
    for voice in VOICES:
        parts[f"voice {voice}"] = [q for q in questions if q.voice == voice and q.held_out]
    return {part: chosen for part, chosen in parts.items() if chosen}


def scores(app, questions=None):
    """{(part, filtered): Score} for every part of ``parts_of``."""
    from webapp.search import search

    questions = load_questions() if questions is None else questions
    parts = parts_of(questions)
    with app.app_context():
        return {(part, filtered): measure(search, chosen, filtered)
                for part, chosen in parts.items() for filtered in (True, False)}


def label_of(part):
    return f"batch {part}" if part[0].isdigit() else part


def print_table(table, parts):
    header = f"{'part':22} {'game filter':12} {'questions':>9} {'top-1':>7} {'top-3':>7} {'MRR':>6}"
    print(header)
    print("-" * len(header))
    for part in parts:
        for filtered in (True, False):
            s = table[(part, filtered)]
            print(f"{label_of(part):22} {'with' if filtered else 'without':12} {s.count:9} {s.top1:7.1%} "
                  f"{s.top3:7.1%} {s.mrr:6.3f}")


def print_games(app, questions):
    from webapp.search import search

    print("By game, all questions")
    header = f"{'game':12} {'questions':>9} {'top-1 with':>10} {'top-3 with':>10} {'top-1 without':>13} {'top-3 without':>13}"
    print(header)
    print("-" * len(header))
    with app.app_context():
        for game in sorted({q.game for q in questions}):
            chosen = [q for q in questions if q.game == game]
            with_filter, without = measure(search, chosen, True), measure(search, chosen, False)
            print(f"{game:12} {len(chosen):9} {with_filter.top1:10.1%} {with_filter.top3:10.1%} "
                  f"{without.top1:13.1%} {without.top3:13.1%}")


def terms_alone(app):
    """A question for each glossary term's name and alias asked alone ("combat"), expecting the term,
    drawn from the content (a name or alias two terms of a game share is left out): what the
    held-back batches, written as questions, barely ask."""
    from webapp.state import state_of

    asked = {}
    for game in state_of(app).library.games.values():
        for section in game.sections.values():
            for entry in section.walk():
                if entry.kind == "term":
                    for name in {entry.title, *entry.aliases}:
                        asked.setdefault((game.id, name.lower()), set()).add(f"{game.id}:{entry.id}")
    return [Question(game, name, tuple(ids), held_out=True, batch=0)
            for (game, name), ids in sorted(asked.items()) if len(ids) == 1]


def ablation(app, questions):
    """[(feature, weight, {filtered: Score}, questions moved, terms alone Score)]: the held-back
    questions ranked with each feature off in turn, first with every feature on (feature None), and
    the glossary's terms asked alone (terms_alone, with the game filter)."""
    from webapp.search import search
    from webapp.state import state_of

    index = state_of(app).search
    held = [q for q in questions if q.held_out]
    alone = terms_alone(app)
    weights = dict(index.ranker.weights)
    rows = []
    with app.app_context():
        for feature in (None, *weights):
            index.ranker.weights = {**weights, **({feature: 0.0} if feature else {})}
            index.forget_answers()
            found = {filtered: measure(search, held, filtered) for filtered in (True, False)}
            rows.append((feature, weights.get(feature), found, measure(search, alone, True)))
    index.ranker.weights = weights
    index.forget_answers()
    everything = rows[0][2]
    return [(feature, weight, found, sum(a != b for filtered in (True, False)
                                         for a, b in zip(found[filtered].ranks, everything[filtered].ranks)), terms)
            for feature, weight, found, terms in rows]


def print_ablation(rows):
    print("Ablation: the held-back questions with each ranking feature off in turn "
          "(moved: questions whose rank changes, with or without the filter; terms alone: the "
          f"{rows[0][4].count} glossary names and aliases asked alone that find their term first, with the filter)")
    header = (f"{'feature off':22} {'weight':>7} {'top-1 with':>10} {'top-3 with':>10} {'top-1 without':>13} "
              f"{'top-3 without':>13} {'moved':>6} {'terms alone':>11}")
    print(header)
    print("-" * len(header))
    for feature, weight, found, moved, terms in rows:
        with_filter, without = found[True], found[False]
        print(f"{feature or '(none: all on)':22} {'' if weight is None else f'{weight:+.2f}':>7} "
              f"{with_filter.top1:10.1%} {with_filter.top3:10.1%} {without.top1:13.1%} {without.top3:13.1%} "
              f"{'' if feature is None else moved:>6} {terms.top1:11.1%}")


def print_listed(table, args):
    listed = [(what, attribute) for what, attribute, asked in (
        ("missing the top 3", "misses", args.misses), ("not answered first", "failures", args.tuning_failures)) if asked]
    for what, attribute in listed:
        for filtered in (True, False):
            print()
            print(f"Tuning questions {what}, {'with' if filtered else 'without'} the game filter:")
            for question, ids in getattr(table[("tuning", filtered)], attribute):
                assert not question.held_out
                print(f"  {question.game}: {question.text!r} expects {', '.join(question.expect)}; got {', '.join(ids) or 'nothing'}")


def explain(app, text, game=None):
    """Print how a question is read and each of its first 10 entries' weighted features, as ranking.py
    weighs them (meaning for the MEANING_POOL best by the rest)."""
    from webapp.state import state_of

    index = state_of(app).search
    reading = index.read(text, game)
    game = game or reading.game
    ranker = index.ranker
    matches = [match for _, match in index.matches(reading, game)]
    print(f"{text!r} in {game or 'every game'}: parts " +
          "; ".join(f"{part.typed}" + (f" (rules: {', '.join(part.rules)})" if part.rules else "") for part in reading.parts))
    if not matches:
        print("  no part finds anything")
        return
    ranked, features = ranker.ranked_with_features(reading, matches, game)
    for docnum in ranked[:10]:
        weighted = {name: weight * features[name].get(docnum, 0.0) for name, weight in ranker.weights.items()}
        print(f"  {index.entries.id[docnum]:45} {sum(weighted.values()):6.3f}  " +
              " ".join(f"{name} {value:+.2f}" for name, value in weighted.items() if value))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--misses", action="store_true", help="list the tuning questions missing the top 3")
    parser.add_argument("--tuning-failures", action="store_true",
                        help="list the tuning questions whose first result does not answer them")
    parser.add_argument("--tuning-only", action="store_true",
                        help="measure and print the tuning questions alone (while tuning: no held-back figure is seen)")
    parser.add_argument("--ablate", action="store_true",
                        help="rank the held-back questions with each feature off in turn")
    parser.add_argument("--explain", metavar="QUESTION", help="why this question ranks as it does")
    parser.add_argument("--game", help="the game to search with --explain (default: every game)")
    args = parser.parse_args(argv)

    from webapp import create_app

    app = create_app()
    if args.explain:
        explain(app, args.explain, args.game)
        return
    questions = load_questions()
    if args.tuning_only:
        questions = [q for q in questions if not q.held_out]
    table = scores(app, questions)
    print(f"Search quality: {len(questions)} player questions in {len({q.game for q in questions})} games "
          f"({sum(q.held_out for q in questions)} held back from tuning); ranks over the first {DEPTH} results")
    parts = parts_of(questions)
    print_table(table, [p for p in parts if not p.startswith("voice")])
    if not args.tuning_only:
        print()
        print("By voice, held-back questions (batches 4 to 6 and 8 to 11)")
        print_table(table, [p for p in parts if p.startswith("voice")])
    print()
    print_games(app, questions)
    if args.ablate and not args.tuning_only:
        print()
        print_ablation(ablation(app, questions))
    print_listed(table, args)


if __name__ == "__main__":
    os.chdir(ROOT)
    main()
