"""Search quality on the content's own questions, each left out of the index it is asked of
(run: python bench/search_asked.py).

Every entry lists the questions players ask that it answers (`asked`). They are split into
FOLDS folds; for each fold the index is built from the content without that fold's questions,
and each of them is asked, with its game's filter and without, and ranked against its own entry
alone (another entry may answer it too, so these figures run lower than the player questions').
Each is asked as written, and again wrapped in table talk (an opening and a closing sentence
around it, several hundred characters in all), as a long question is.

These questions are the content's, not the held-back player questions, so ranking may be tuned
on them: `--weights rules=1.2,asked=0.8` ranks with other weights.
"""
from __future__ import annotations

import argparse
import copy
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from search_quality import Question, measure  # noqa: E402

FOLDS = 5
OPENINGS = (
    "Quick question from our game last night, we argued about it for ages.",
    "Hi all, new to this and my group could not agree on something.",
    "Okay so this came up twice in one evening and nobody at the table was sure what to do.",
    "We are playing our second game and got stuck on a ruling, hoping someone can settle it.",
    "Sorry if this is obvious but I looked in the book and could not find it anywhere.",
    "My friend and I have been going back and forth on this one so I thought I would ask here.",
)
CLOSINGS = (
    "Thanks in advance, we want to get it right next time.",
    "Any help appreciated, the book was not clear to us.",
    "We ended up just guessing and moving on but it bugged me all night.",
    "I would really like to know the proper answer before we play again.",
    "Cheers!",
    "Hope that makes sense, happy to explain more if needed.",
)


def asked_questions(library):
    """(game, entry id, question) for every question the content lists, in content order."""
    for game in library.games.values():
        for section in game.sections.values():
            for entry in section.walk():
                for question in entry.asked:
                    yield game.id, entry.id, question


def wrapped(text, number):
    """The question in table talk: an opening sentence before it and a closing one after."""
    return f"{OPENINGS[number % len(OPENINGS)]} {text} {CLOSINGS[number // len(OPENINGS) % len(CLOSINGS)]}"


def without(library, left_out):
    """A copy of ``library`` whose entries no longer list the questions in ``left_out``."""
    copied = copy.deepcopy(library)
    for game in copied.games.values():
        for section in game.sections.values():
            for entry in section.walk():
                entry.asked = tuple(q for q in entry.asked if (game.id, entry.id, q) not in left_out)
    return copied


def fold_scores(library, calculators, weights, folds):
    """{(way, filtered): [ranks]} over every fold: way is "as written" or "in table talk"."""
    from webapp.search import SearchIndex

    questions = list(asked_questions(library))
    ranks = {}
    for fold in range(folds):
        chosen = [q for number, q in enumerate(questions) if number % folds == fold]
        index = SearchIndex(without(library, set(chosen)), calculators)
        index.ranker.weights.update(weights)
        for way, text_of in (("as written", lambda q, n: q), ("in table talk", wrapped)):
            asked = [Question(game=game, text=text_of(text, n), expect=(f"{game}:{entry}",), held_out=False, batch=0)
                     for n, (game, entry, text) in enumerate(chosen)]
            for filtered in (True, False):
                ranks.setdefault((way, filtered), []).extend(measure(index.search, asked, filtered).ranks)
    return ranks


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folds", type=int, default=FOLDS)
    parser.add_argument("--weights", default="", help="feature=weight,... to rank with instead of the table's")
    args = parser.parse_args(argv)
    weights = {name: float(value) for name, value in (item.split("=") for item in args.weights.split(",") if item)}

    from webapp import create_app
    from webapp.state import state_of

    state = state_of(create_app())
    ranks = fold_scores(state.library, state.calculators, weights, args.folds)
    print(f"The content's own questions, each asked of an index built without its fold ({args.folds} folds), "
          f"ranked against its own entry")
    header = f"{'asked':16} {'game filter':12} {'questions':>9} {'top-1':>7} {'top-3':>7} {'MRR':>6}"
    print(header)
    print("-" * len(header))
    for (way, filtered), found in ranks.items():
        count = len(found)
        print(f"{way:16} {'with' if filtered else 'without':12} {count:9} {sum(r == 1 for r in found) / count:7.1%} "
              f"{sum(bool(r) and r <= 3 for r in found) / count:7.1%} {sum(1 / r for r in found if r) / count:6.3f}")


if __name__ == "__main__":
    os.chdir(ROOT)
    main()
