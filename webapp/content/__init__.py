"""Rule content: read the YAML under content/, validate it, then build the library from it.

Validation and building are two passes. The checker (``checker``) reads every file and collects
every problem, each naming the file and the path inside it, and raises them together in one
:class:`ContentError`: loading never half-succeeds. Only content that passes is built (``builder``)
into the :class:`Library` (``model``), with its Markdown rendered once (``rendering``). What each
file may hold, and the tables of section kinds and step flags, are in ``schema``; the numbers
calculators read from ``data/`` files in ``data_files``. The library is the single source for rule
pages, search, turn checklists, print sheets and calculator links.
"""
import hashlib
from pathlib import Path

from .builder import Builder
from .checker import SAFE_LOADER, Checker, ContentError
from .data_files import FOTF_DICE_KEYS, FOTF_DIE_SIDES
from .model import Entry, Game, Library, Section, applies
from .schema import (CHECKLIST_KEYS, ENTRY_KEYS, FLAGS, GAME_IDS, GAME_KEYS, SECTION_KEYS, SOURCE_RULE_KEYS,
                     SOURCE_SECTION_KEYS, SOURCES_FILE, SOURCES_KEYS, TABLE_KEYS, TERM_KEYS)
from .vocabulary import load_vocabulary

__all__ = [
    "CHECKLIST_KEYS", "ENTRY_KEYS", "FLAGS", "FOTF_DICE_KEYS", "FOTF_DIE_SIDES", "GAME_IDS", "GAME_KEYS",
    "SAFE_LOADER", "SECTION_KEYS", "SOURCE_RULE_KEYS", "SOURCE_SECTION_KEYS", "SOURCES_FILE", "SOURCES_KEYS",
    "TABLE_KEYS", "TERM_KEYS", "ContentError", "Entry", "Game", "Library", "Section", "applies",
    "content_fingerprint", "load_library",
]


def content_fingerprint(root: Path) -> str:
    """A hash of every content file's path and bytes: it changes whenever the content does."""
    digest = hashlib.sha256()
    for path in sorted(Path(root).rglob("*")):
        if path.is_file() and path.suffix in (".yaml", ".yml"):
            digest.update(str(path.relative_to(root)).encode())
            digest.update(b"\0")
            digest.update(path.read_bytes())
            digest.update(b"\0")
    return digest.hexdigest()


def load_library(root, calculator_ids, parsed=None) -> Library:
    """Load and validate every game under ``root``; raise ContentError listing every problem.

    ``calculator_ids`` are the calculators an entry's ``calculator`` key may name; ``parsed``, the
    content's texts parsed ahead of time (see parsed.py), or None to parse each file as it is read.
    """
    root = Path(root)
    checker = Checker(root, tuple(calculator_ids), parsed)
    files = checker.check()
    if checker.problems:
        raise ContentError(checker.problems)
    library = Builder().build(files, content_fingerprint(root))
    library.vocabulary = load_vocabulary(root, library, calculator_ids, parsed)
    return library
