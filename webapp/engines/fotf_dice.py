"""Exact odds for the dice of The Lord of the Rings: Fate of the Fellowship.

Three rolls are covered: the search roll (search dice against Frodo), the battle roll
(battle dice where friendly and shadow troops meet) and the final search roll Frodo makes
at Mount Doom to destroy the One Ring.

The rules give each die's results but not how many faces show each one, so every function
takes the face counts as an input (`faces`). The app reads them from
content/fotf/data/dice.yaml through the content library; those counts are a placeholder
marked unverified.

Everything is exact: probabilities are fractions.Fraction, built by walking every way the
dice can land and every re-roll, never by sampling.
"""

from __future__ import annotations

from fractions import Fraction

from .inputs import InputError, require_bool, require_choice, require_int
from .words import counted

# The two dice, declared once: the results each die shows, and their names in words. How many of a
# die's DIE_SIDES faces show each result is not in the rules; it comes from content/fotf/data/dice.yaml.
SEARCH_FACES = ("slip_by", "weary", "exposed", "recall")
BATTLE_FACES = ("rout", "exchange", "overrun", "nazgul")
DIE_FACES = {"search": SEARCH_FACES, "battle": BATTLE_FACES}
DIE_SIDES = 6  # the faces of one die

MAX_SEARCH_DICE = 7  # a search never rolls more than 7 dice
MAX_BATTLE_DICE = 3  # a battle roll never rolls more than 3 dice
MAX_REROLLS = 7
MAX_NAZGUL = 9  # the game has 9 Nazgûl
MAX_SHADOW_TROOPS = 39  # 18 placed at setup plus 21 left in the supply
MAX_FRIENDLY_TROOPS = 99
MAX_HOPE = 30  # the summary does not give the length of the hope track; a generous bound
MAX_FACES = 20  # faces of one die showing one result: the summary does not give a die's faces; a generous bound
INITIATORS = ("attack", "shadow", "skies-darken")

FACE_LABELS = {
    "slip_by": "slip by",
    "weary": "weary",
    "exposed": "exposed",
    "recall": "recall",
    "rout": "rout",
    "exchange": "exchange",
    "overrun": "overrun",
    "nazgul": "Nazgûl",
}


# --------------------------------------------------------------------------- validation


def _die_faces(faces, die):
    """The face counts of one die from `faces`.

    `faces` may be the whole mapping of both dice (with "search" and "battle" keys, as
    content/fotf/data/dice.yaml holds them) or just the face counts of the die in question.
    """
    names = DIE_FACES[die]
    if isinstance(faces, dict) and die in faces:
        faces = faces[die]
    if not isinstance(faces, dict):
        raise InputError("faces", f"a mapping of the {die} die faces {', '.join(names)} to counts")
    unknown = sorted(map(str, set(faces) - set(names)))  # keys of any type, so sort their text
    missing = [n for n in names if n not in faces]
    if unknown or missing:
        raise InputError(
            "faces",
            f"the {die} die needs exactly the faces {', '.join(names)}"
            + (f" (missing {', '.join(missing)})" if missing else "")
            + (f" (unknown {', '.join(map(str, unknown))})" if unknown else "")
        )
    counts = {name: require_int("faces", faces[name], 0, MAX_FACES) for name in names}
    if sum(counts.values()) < 1:
        raise InputError("faces", f"the {die} die needs at least one face")
    return counts


# --------------------------------------------------------------------------- internals


def _face_text(counts):
    total = sum(counts.values())
    return ", ".join(f"{FACE_LABELS[n]} {c}/{total}" for n, c in counts.items())


def _roll(n, probs):
    """Distribution of how many of n dice land in each category.

    probs is a tuple of per-die probabilities, one per category, summing to 1. Returns
    {counts tuple: probability}.
    """
    dist = {tuple(0 for _ in probs): Fraction(1)}
    for _ in range(n):
        nxt = {}
        for state, p in dist.items():
            for i, q in enumerate(probs):
                if q:
                    s = list(state)
                    s[i] += 1
                    key = tuple(s)
                    nxt[key] = nxt.get(key, 0) + p * q
        dist = nxt
    return dist


def _reroll(dist, probs, priority, rerolls, done=None):
    """Apply up to `rerolls` re-rolls to a count distribution.

    Each re-roll takes one die from the first category in `priority` that has a die
    showing it and rolls it again; the new face stands. A re-roll with nothing worth
    re-rolling is not spent, nor one in a state where `done(state)` is true (the player
    stops there). Returns (new distribution, expected re-rolls spent).
    """
    spent = Fraction(0)
    for _ in range(rerolls):
        nxt = {}
        for state, p in dist.items():
            target = None if done is not None and done(state) else next((i for i in priority if state[i] > 0), None)
            if target is None:
                nxt[state] = nxt.get(state, 0) + p
                continue
            spent += p
            for i, q in enumerate(probs):
                if q:
                    s = list(state)
                    s[target] -= 1
                    s[i] += 1
                    key = tuple(s)
                    nxt[key] = nxt.get(key, 0) + p * q
        dist = nxt
    return dist, spent


def _listed(marginal, length):
    return [marginal.get(k, Fraction(0)) for k in range(length)]


def _expected(values):
    return sum((k * p for k, p in enumerate(values)), Fraction(0))


def _search(dice, counts, in_haven, recall_limit, rerolls, done=None):
    """Shared core of the search roll and the Mount Doom roll.

    recall_limit is how many Nazgûl a recall can send to Mordor (0 when recall does
    nothing); done(state) stops the re-rolls (see _reroll). Returns (hope_lost list,
    recall list, expected re-rolls spent, per-die probabilities (hope, recall, other)).
    """
    total = sum(counts.values())
    hope_faces = counts["weary"] + (0 if in_haven else counts["exposed"])
    recall_faces = counts["recall"]
    p_hope = Fraction(hope_faces, total)
    p_recall = Fraction(recall_faces, total)
    p_other = 1 - p_hope - p_recall
    probs = (p_hope, p_recall, p_other)
    dist = _roll(dice, probs)
    dist, spent = _reroll(dist, probs, (0,), rerolls, done)
    hope = {}
    recall = {}
    for (h, r, _), p in dist.items():
        hope[h] = hope.get(h, 0) + p
        sent = min(r, recall_limit)
        recall[sent] = recall.get(sent, 0) + p
    return _listed(hope, dice + 1), _listed(recall, dice + 1), spent, probs


# --------------------------------------------------------------------------- search roll


def _search_steps(dice, counts, in_haven, nazgul_present, in_mordor, rerolls, nazgul, p_hope, p_recall,
                  spent) -> list:
    """The working of a search roll: what each result does here, and how the re-rolls are spent."""
    steps = []
    if dice == 0:
        steps.append("No Nazgûl and no shadow troops are present, so no search dice are rolled and nothing happens.")
    else:
        steps.append(f"Roll {dice} search {'die' if dice == 1 else 'dice'}; the face counts used are {_face_text(counts)}.")
        if in_haven:
            steps.append(f"Frodo is in a haven, so exposed costs nothing: only weary costs 1 hope, chance {p_hope} per die.")
        else:
            steps.append(f"Weary and exposed each cost 1 hope, so each die costs 1 hope with chance {p_hope}.")
        if in_mordor:
            steps.append("Frodo is in Mordor, so recall has no effect.")
        elif not nazgul_present:
            steps.append("No Nazgûl are present, so recall has no effect.")
        else:
            limit = "" if nazgul is None else f", up to the {nazgul} in Frodo's region"
            steps.append(f"Each recall sends 1 Nazgûl to Mordor{limit}; each die shows recall with chance {p_recall}.")
        steps.append(
            f"Without re-rolls the hope lost follows a binomial count: P(k) = C({dice},k) x ({p_hope})^k x ({1 - p_hope})^({dice}-k)."
        )
        if rerolls:
            steps.append(
                f"Up to {rerolls} re-roll{'s are' if rerolls > 1 else ' is'} spent one at a time on a die showing a "
                f"hope-losing result; the new face stands and may itself be re-rolled by a later spend."
            )
            steps.append(f"On average {spent} re-rolls are spent.")
    return steps


def search_roll(
    dice,
    faces,
    in_haven=False,
    nazgul_present=True,
    in_mordor=False,
    rerolls=0,
    nazgul=None,
) -> dict:
    """Exact outcome of a search roll against Frodo.

    dice: 0 to 7 search dice (one per Nazgûl in Frodo's region and shadow troop in his
    location, capped at 7; 0 means nothing is rolled). Each die: slip by does nothing;
    weary costs 1 hope; exposed costs 1 hope unless Frodo is in a haven; recall sends 1
    Nazgûl to Mordor if any are present, and does nothing if Frodo is in Mordor.
    nazgul, when given, is how many Nazgûl are in Frodo's region: recalls beyond that many
    find none left to send; it must agree with nazgul_present.

    rerolls (0 to 7): how many symbols the characters with Frodo will spend on re-rolls.
    Each one re-rolls a die showing a hope-losing result, the new face standing; the same
    die may be re-rolled again by a further spend; a re-roll is not spent when no die
    shows a hope-losing result.

    Returns {"dice", "hope_lost": [P(0), ..., P(dice)], "expected_hope_lost",
    "recall": [P(0 Nazgûl sent), ..., P(dice)], "expected_recall",
    "expected_rerolls_spent", "steps"}.
    """
    require_int("dice", dice, 0, MAX_SEARCH_DICE)
    counts = _die_faces(faces, "search")
    require_bool("in_haven", in_haven)
    require_bool("nazgul_present", nazgul_present)
    require_bool("in_mordor", in_mordor)
    require_int("rerolls", rerolls, 0, MAX_REROLLS)
    if nazgul is not None:
        require_int("nazgul", nazgul, 0, MAX_NAZGUL)
        if (nazgul > 0) != nazgul_present:
            raise InputError("nazgul", "must be 0 when nazgul_present is false and at least 1 when it is true")
        if nazgul > dice and dice < MAX_SEARCH_DICE:
            raise InputError("nazgul", f"more Nazgûl ({nazgul}) than search dice ({dice}): each Nazgûl in "
                                       f"Frodo's region rolls a die, at most {MAX_SEARCH_DICE} in all")

    if nazgul_present and not in_mordor:
        recall_limit = dice if nazgul is None else min(dice, nazgul)
    else:
        recall_limit = 0
    hope, recall, spent, (p_hope, p_recall, _) = _search(dice, counts, in_haven, recall_limit, rerolls)

    steps = _search_steps(dice, counts, in_haven, nazgul_present, in_mordor, rerolls, nazgul, p_hope, p_recall,
                          spent)
    expected_hope = _expected(hope)
    expected_recall = _expected(recall)
    steps.append(f"Expected hope lost: {expected_hope}; chance of losing no hope: {hope[0]}.")
    steps.append(f"Expected Nazgûl sent to Mordor: {expected_recall}.")
    return {
        "dice": dice,
        "hope_lost": hope,
        "expected_hope_lost": expected_hope,
        "recall": recall,
        "expected_recall": expected_recall,
        "expected_rerolls_spent": spent,
        "steps": steps,
    }


def search_dice(nazgul, shadow_troops, dice=None) -> int:
    """How many search dice a search roll uses: 1 per Nazgûl in Frodo's region and per shadow troop in
    his location, at most 7. A count given (`dice`) must be that one, or the Nazgûl's alone when the
    shadow troops are ignored (Frodo putting on the Ring); never fewer than the Nazgûl.
    """
    require_int("nazgul", nazgul, 0, MAX_NAZGUL)
    require_int("shadow_troops", shadow_troops, 0, MAX_SHADOW_TROOPS)
    worked_out = min(nazgul + shadow_troops, MAX_SEARCH_DICE)
    if dice is None:
        return worked_out
    require_int("dice", dice, 0, MAX_SEARCH_DICE)
    if dice < min(nazgul, MAX_SEARCH_DICE):
        raise InputError("dice", f"more Nazgûl ({nazgul}) than search dice ({dice}): each Nazgûl in Frodo's "
                                 f"region rolls a die, at most {MAX_SEARCH_DICE} in all")
    if dice not in (worked_out, min(nazgul, MAX_SEARCH_DICE)):
        raise InputError("dice", f"{nazgul} Nazgûl and {counted(shadow_troops, 'shadow troop')} roll "
                                 f"{counted(worked_out, 'search die', 'search dice')} "
                                 f"({min(nazgul, MAX_SEARCH_DICE)} when the shadow troops are ignored), not {dice}")
    return dice


# --------------------------------------------------------------------------- battle roll


def battle_dice(initiator, friendly_troops, shadow_troops, dice=None) -> int:
    """How many battle dice a battle roll uses.

    initiator "attack" (characters doing the attack action): up to 1 per friendly troop, at
    least 1 and at most 3. initiator "shadow" or "skies-darken" (a shadow card or Skies
    Darken card starts it): 1 per shadow troop, at most 3. A battle needs troops of both
    sides in the location. A count given (`dice`) must respect the same rule.
    """
    require_choice("initiator", initiator, INITIATORS)
    _check_troops(friendly_troops, shadow_troops)
    if initiator == "attack":
        most = min(friendly_troops, MAX_BATTLE_DICE)
        if dice is not None and not 1 <= require_int("dice", dice, 1, MAX_BATTLE_DICE) <= most:
            raise InputError("dice", f"must be from 1 to {most}: an attack rolls up to 1 die per friendly troop, "
                                     f"at most {MAX_BATTLE_DICE}")
        return most if dice is None else dice
    per_troop = min(shadow_troops, MAX_BATTLE_DICE)
    if dice is not None and require_int("dice", dice, 1, MAX_BATTLE_DICE) != per_troop:
        raise InputError("dice", f"must be {per_troop}: a card's battle rolls 1 die per shadow troop, "
                                 f"at most {MAX_BATTLE_DICE}")
    return per_troop


def _check_troops(friendly_troops, shadow_troops):
    require_int("friendly_troops", friendly_troops, 0, MAX_FRIENDLY_TROOPS)
    require_int("shadow_troops", shadow_troops, 0, MAX_SHADOW_TROOPS)
    if friendly_troops == 0:
        raise InputError("friendly_troops", "a battle needs at least 1 friendly troop in the location")
    if shadow_troops == 0:
        raise InputError("shadow_troops", "a battle needs at least 1 shadow troop in the location")


# battle categories, worst for the Free Peoples first
_NAZGUL, _OVERRUN, _EXCHANGE, _ROUT, _BLANK = range(5)
REROLL_RESULTS = ("nazgul", "overrun", "exchange")  # the results worth re-rolling, as they are by default
# The rules behind the re-roll options, and where each comes from ("summary": the rules summary).
RULES = {
    "reroll_results": ("A die is re-rolled for each symbol spent, and again for more; which die is the "
                       "player's choice", "summary"),
    "stop_when_won": ("Re-rolls are spent by choice, so the players may stop once the win is certain", "summary"),
}
_REROLL_CATEGORY = {"nazgul": _NAZGUL, "overrun": _OVERRUN, "exchange": _EXCHANGE}


def reroll_choice(value) -> tuple[str, ...]:
    """The battle results to re-roll, in priority order, from a list or a comma-separated text.

    Each of nazgul, overrun, exchange at most once; an empty choice re-rolls nothing.
    Rout is never re-rolled: it only removes a shadow troop.
    """
    names = value.split(",") if isinstance(value, str) else value
    if not isinstance(names, (list, tuple)) or not all(isinstance(name, str) for name in names):
        raise InputError("reroll_results", "a list of battle results (nazgul, overrun, exchange)")
    names = tuple(name.strip() for name in names if name.strip())
    unknown = [name for name in names if name not in _REROLL_CATEGORY]
    if unknown or len(set(names)) != len(names):
        raise InputError("reroll_results", "each of nazgul, overrun, exchange at most once, in the order to "
                                           "re-roll them" + (f" (unknown {', '.join(unknown)})" if unknown else " (repeated)"))
    return names


def _battle_face_chances(counts, in_haven, nazgul_present) -> tuple:
    """The chance of each result category on one battle die, overrun in a haven and Nazgûl
    with none present counted as blanks."""
    total = sum(counts.values())
    probs = [Fraction(0)] * 5
    probs[_ROUT] += Fraction(counts["rout"], total)
    probs[_EXCHANGE] += Fraction(counts["exchange"], total)
    probs[_BLANK if in_haven else _OVERRUN] += Fraction(counts["overrun"], total)
    probs[_NAZGUL if nazgul_present else _BLANK] += Fraction(counts["nazgul"], total)
    return tuple(probs)


def _troops_removed(dist, friendly_troops, shadow_troops) -> dict:
    """{(shadow troops removed, friendly troops removed): chance}, never more than are present."""
    joint = {}
    for state, p in dist.items():
        shadow_hits = state[_ROUT] + state[_EXCHANGE]
        friendly_hits = state[_EXCHANGE] + state[_OVERRUN] + 2 * state[_NAZGUL]
        key = (min(shadow_hits, shadow_troops), min(friendly_hits, friendly_troops))
        joint[key] = joint.get(key, 0) + p
    return joint


def _battle_steps(dice, counts, friendly_troops, shadow_troops, in_haven, nazgul_present, rerolls, chosen,
                  spent) -> list:
    """The working of a battle roll: what each result does here, and how the re-rolls are spent."""
    steps = [
        f"Roll {counted(dice, 'battle die', 'battle dice')} with {counted(friendly_troops, 'friendly troop')} and "
        f"{counted(shadow_troops, 'shadow troop')} present; the face counts used are {_face_text(counts)}.",
        "Rout removes 1 shadow troop and exchange removes 1 shadow and 1 friendly troop.",
        "The location is a haven, so overrun has no effect."
        if in_haven
        else "Overrun removes 1 friendly troop.",
        "Nazgûl are present, so a Nazgûl result removes 2 friendly troops."
        if nazgul_present
        else "No Nazgûl are present, so a Nazgûl result has no effect.",
        "Hits beyond the troops present are ignored.",
    ]
    if rerolls and chosen:
        order = ", then ".join(
            {"nazgul": "a Nazgûl result that applies", "overrun": "an overrun that applies",
             "exchange": "an exchange"}[name] for name in chosen)
        steps.append(
            f"Up to {rerolls} re-roll{'s are' if rerolls > 1 else ' is'} spent one at a time on a die showing "
            f"{order}; the new face stands."
        )
        kept = [FACE_LABELS[name] for name in REROLL_RESULTS if name not in chosen]
        if kept:
            steps.append(f"{' and '.join(kept).capitalize()} results are kept, never re-rolled.")
        steps.append(f"On average {spent} re-rolls are spent.")
    elif rerolls:
        steps.append("No result is chosen for re-rolling, so no re-roll is spent.")
    return steps


def battle_roll(
    dice,
    faces,
    friendly_troops,
    shadow_troops,
    in_haven=False,
    nazgul_present=False,
    rerolls=0,
    reroll_results=REROLL_RESULTS,
) -> dict:
    """Exact outcome of a battle roll.

    dice: 1 to 3 battle dice (see battle_dice). Each die: rout removes 1 shadow troop;
    exchange removes 1 shadow and 1 friendly troop; overrun removes 1 friendly troop unless
    the location is a haven; Nazgûl removes 2 friendly troops if Nazgûl are present.
    Removing more troops than are present removes those there are.

    rerolls (0 to 7): re-rolls the characters present will spend, one at a time, each on
    a die showing one of `reroll_results` (a list, or comma-separated text, of nazgul,
    overrun and exchange, in the order the player re-rolls them). The default, nazgul,
    overrun, exchange, takes the die doing the Free Peoples most harm; leaving exchange
    out keeps the shadow troop an exchange removes (a re-roll can lose it and show a
    Nazgûl). Rout and results with no effect (overrun in a haven, Nazgûl with none
    present) are never re-rolled; a re-roll with no chosen result showing is not spent.
    The new face stands. The summary only says a die may be re-rolled for each symbol
    spent, and again for more; which die is the player's choice.

    Returns {"dice", "shadow_removed": [P(0), ...], "friendly_removed": [P(0), ...],
    "joint": [{"shadow", "friendly", "probability"}], "expected_shadow_removed",
    "expected_friendly_removed", "haven_lost", "expected_rerolls_spent", "steps"}.
    haven_lost is P(no friendly troops left while shadow troops remain) in a haven, and
    None elsewhere.
    """
    require_int("dice", dice, 1, MAX_BATTLE_DICE)
    counts = _die_faces(faces, "battle")
    _check_troops(friendly_troops, shadow_troops)
    require_bool("in_haven", in_haven)
    require_bool("nazgul_present", nazgul_present)
    require_int("rerolls", rerolls, 0, MAX_REROLLS)
    chosen = reroll_choice(reroll_results)

    probs = _battle_face_chances(counts, in_haven, nazgul_present)
    dist = _roll(dice, probs)
    dist, spent = _reroll(dist, probs, tuple(_REROLL_CATEGORY[name] for name in chosen), rerolls)

    joint = _troops_removed(dist, friendly_troops, shadow_troops)
    shadow_list, friendly_list = _marginals(joint, min(dice, shadow_troops) + 1, min(2 * dice, friendly_troops) + 1)
    # the haven falls when no friendly troop is left while shadow troops remain
    haven_lost = sum((p for (s, f), p in joint.items() if friendly_troops - f == 0 and shadow_troops - s > 0),
                     Fraction(0)) if in_haven else None
    expected_shadow = _expected(shadow_list)
    expected_friendly = _expected(friendly_list)
    steps = _battle_steps(dice, counts, friendly_troops, shadow_troops, in_haven, nazgul_present, rerolls, chosen,
                          spent)
    steps.append(f"Expected shadow troops removed: {expected_shadow}; expected friendly troops removed: {expected_friendly}.")
    if in_haven:
        steps.append(
            f"The haven falls (no friendly troops left while shadow troops remain, costing 3 hope) with chance {haven_lost}."
        )
    return {
        "dice": dice,
        "shadow_removed": shadow_list,
        "friendly_removed": friendly_list,
        "joint": [{"shadow": s, "friendly": f, "probability": joint[(s, f)]} for (s, f) in sorted(joint)],
        "expected_shadow_removed": expected_shadow,
        "expected_friendly_removed": expected_friendly,
        "haven_lost": haven_lost,
        "expected_rerolls_spent": spent,
        "steps": steps,
    }


def _marginals(joint, shadow_length, friendly_length):
    """The chances of each number of shadow and of friendly troops removed, from their joint chances."""
    shadow, friendly = {}, {}
    for (s, f), p in joint.items():
        shadow[s] = shadow.get(s, 0) + p
        friendly[f] = friendly.get(f, 0) + p
    return _listed(shadow, shadow_length), _listed(friendly, friendly_length)


# --------------------------------------------------------------------------- Mount Doom


def ring_roll(nazgul, shadow_troops, hope, hope_missing, faces, rerolls=0, stop_when_won=False) -> dict:
    """Exact chance that Frodo destroys the One Ring at Mount Doom.

    The final search roll uses 1 search die per Nazgûl and per shadow troop present plus 1
    per hope missing from the hope track, at most 7 dice. Mount Doom is in Mordor, so
    recall does nothing; it is not a haven, so weary and exposed each cost 1 hope. The
    players win if at least 1 hope remains afterwards. rerolls works as in search_roll.
    stop_when_won: the players stop re-rolling as soon as the dice showing a hope loss are
    fewer than the hope left, the win being certain; the chance to win is the same (a
    re-roll never adds a hope loss), only fewer symbols are spent.

    Returns {"dice", "win": P, "hope_lost": [P(0), ..., P(dice)], "expected_hope_lost",
    "expected_rerolls_spent", "steps"}.
    """
    require_int("nazgul", nazgul, 0, MAX_NAZGUL)
    require_int("shadow_troops", shadow_troops, 0, MAX_SHADOW_TROOPS)
    require_int("hope", hope, 1, MAX_HOPE)
    require_int("hope_missing", hope_missing, 0, MAX_HOPE)
    counts = _die_faces(faces, "search")
    require_int("rerolls", rerolls, 0, MAX_REROLLS)
    require_bool("stop_when_won", stop_when_won)

    wanted = nazgul + shadow_troops + hope_missing
    dice = min(wanted, MAX_SEARCH_DICE)
    won = (lambda state: state[0] < hope) if stop_when_won else None  # state[0]: dice showing a hope loss
    hope_lost, _, spent, (p_hope, _, _) = _search(dice, counts, False, 0, rerolls, won)
    win = sum(hope_lost[:hope], Fraction(0))

    steps = [
        f"Dice: {nazgul} Nazgûl + {counted(shadow_troops, 'shadow troop')} + {hope_missing} missing hope = {wanted}"
        + (f", capped at {MAX_SEARCH_DICE}." if wanted > MAX_SEARCH_DICE else "."),
        f"The face counts used are {_face_text(counts)}.",
        f"Mount Doom is in Mordor, so recall does nothing; weary and exposed each cost 1 hope, chance {p_hope} per die.",
    ]
    if rerolls:
        steps.append(
            f"Up to {rerolls} re-roll{'s are' if rerolls > 1 else ' is'} spent on dice showing a hope-losing result"
            + (f", stopping as soon as {'no die shows' if hope == 1 else f'fewer than {hope} dice show'} one "
               "(the win is then certain)"
               if stop_when_won else "")
            + f"; on average {spent} are spent."
        )
    steps.append(
        f"With {hope} hope, the players win when at most {hope - 1} hope is lost: chance {win}."
    )
    return {
        "dice": dice,
        "win": win,
        "hope_lost": hope_lost,
        "expected_hope_lost": _expected(hope_lost),
        "expected_rerolls_spent": spent,
        "steps": steps,
    }
