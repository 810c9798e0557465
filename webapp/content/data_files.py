"""The numbers calculators read from ``content/<game>/data/*.yaml``: each kind of data file, its
check and the values built from it."""
from dataclasses import dataclass

from ..engines.fotf_dice import DIE_FACES as FOTF_DIE_FACES
from ..engines.fotf_dice import DIE_SIDES as FOTF_DIE_SIDES

# content/fotf/data/dice.yaml: how many faces of each Fate of the Fellowship die show each result.
# The summary gives neither the counts nor the number of sides; the file's own note says it
# assumes six-sided dice, so a die whose counts add up to anything else is a typo.
FOTF_DICE_KEYS = {"verified": False, "note": False, "search": True, "battle": True}


@dataclass(frozen=True)
class DataFile:
    """A kind of data file: the check it must pass, and the values built from it once it has."""

    check: object  # (checker, file, data) -> bool, reporting each problem
    build: object  # (data) -> the values calculators read


def check_fotf_dice(checker, file, data) -> bool:
    """Each die's face counts: exactly its results, whole numbers, adding up to its sides."""
    before = len(checker.problems)
    if not checker.check_keys(file, "", data, FOTF_DICE_KEYS):
        return False
    if not isinstance(data.get("verified", False), bool):
        checker.problem(file, "verified", "must be true or false")
    checker.text(file, "note", data.get("note"))
    for die, faces in FOTF_DIE_FACES.items():
        counts = data[die]
        if not isinstance(counts, dict):
            checker.problem(file, die, f"must be a mapping of the faces {', '.join(faces)} to counts")
            continue
        die_before = len(checker.problems)
        for face in counts:
            if face not in faces:
                checker.problem(file, f"{die}.{face}", f"unknown face (allowed: {', '.join(faces)})")
        for face in faces:
            count = counts.get(face)
            if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= FOTF_DIE_SIDES:
                checker.problem(file, f"{die}.{face}", f"must be a whole number of faces from 0 to {FOTF_DIE_SIDES}")
        if len(checker.problems) == die_before and sum(counts.values()) != FOTF_DIE_SIDES:
            checker.problem(file, die, f"the faces total {sum(counts.values())}; a die has {FOTF_DIE_SIDES} faces")
    return len(checker.problems) == before


def build_fotf_dice(data) -> dict:
    """The checked dice file's values, with what it may leave out filled in."""
    note = data.get("note")
    return {"verified": data.get("verified", False), "note": "" if note is None else str(note),
            **{die: {face: data[die][face] for face in faces} for die, faces in FOTF_DIE_FACES.items()}}


# What each data file holds: (game, file name) -> its kind.
DATA_FILES = {("fotf", "dice"): DataFile(check=check_fotf_dice, build=build_fotf_dice)}
