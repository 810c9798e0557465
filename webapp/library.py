"""The rules library: the content folder read and checked, its rules free to name any calculator."""
from .calculators import CALCULATORS
from .content import Library, load_library


def read_library(content_dir, parsed=None) -> Library:
    """Load and validate the content at content_dir; raises ContentError listing every problem.
    ``parsed``: its texts parsed ahead of time (webapp/content/parsed.py), or None."""
    return load_library(content_dir, calculator_ids=CALCULATORS, parsed=parsed)
