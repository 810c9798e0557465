"""The content's YAML as data: parsed as each file is read, or looked up among texts parsed ahead
of time.

The offline bundle's browser has no libyaml, and pure-Python YAML parsing would be most of its
start, so the bundle carries the content's files parsed when it was built: a table from the hash
of each file's text to its data. The checker and the builder then run as always, on the same
data; a file whose text is not in the table (or has changed since) is parsed as it is read.
"""
import hashlib
import pickle
from pathlib import Path

import yaml

# libyaml's loader when PyYAML has it: the same safe loading, several times faster at start
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def text_key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def parse_yaml(text: str, parsed=None):
    """The data of a YAML text: from ``parsed`` (text_key -> data) when it holds this text, else
    parsed now (raising yaml.YAMLError as PyYAML does)."""
    key = text_key(text) if parsed else None
    if key in (parsed or {}):
        return parsed.pop(key)  # each text is read once; the checker may change what it gets
    return yaml.load(text, Loader=SAFE_LOADER)


def parse_folder(root) -> dict:
    """Every YAML file under root, parsed: text_key -> data (files that do not parse are left out)."""
    table = {}
    for path in sorted(Path(root).rglob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        try:
            table[text_key(text)] = yaml.load(text, Loader=SAFE_LOADER)
        except yaml.YAMLError:
            continue
    return table


def write_parsed(table: dict, target) -> None:
    Path(target).write_bytes(pickle.dumps(table, protocol=pickle.HIGHEST_PROTOCOL))


def read_parsed(source) -> dict | None:
    """The table written by write_parsed, or None when source is None (parse every file as it is read)."""
    if source is None:
        return None
    return pickle.loads(Path(source).read_bytes())
