"""Markdown prose to HTML, once at load: rendered, its ``ref:`` links pointed at the rules they
name, and its plain text kept for search."""
import html
import re

import markdown
from markdown import inlinepatterns

from .model import Ref, Section

REF_LINK = re.compile(r"\]\(ref:([a-z0-9-]+(?::[a-z0-9-]+)?)\)")  # in the Markdown source
REF_HREF = re.compile(r'href="ref:([a-z0-9-]+(?::[a-z0-9-]+)?)"')  # in the rendered HTML
# Code, where a tag is text: fenced blocks and inline spans. (Indented lines stay: in rule text
# they are list items more often than code.)
CODE = re.compile(r"^(```|~~~).*?^\1|(`+).+?\2", re.S | re.M)
# What Markdown itself reads as an inline HTML tag or comment, and the autolinks it reads first.
RAW_HTML = re.compile(inlinepatterns.HTML_RE, re.S)
AUTOLINK = re.compile(f"{inlinepatterns.AUTOLINK_RE}|{inlinepatterns.AUTOMAIL_RE}")


class MarkdownRenderer:
    """One Markdown converter, reset between texts (building it is the slow part)."""

    def __init__(self):
        self.md = markdown.Markdown(extensions=["tables", "sane_lists"], output_format="html")

    def render(self, source) -> str:
        if not source:
            return ""
        self.md.reset()
        return self.md.convert(source)


def raw_html(source: str) -> list:
    """The HTML tags written into Markdown text (outside code), which Markdown would pass through
    unescaped: rule text is Markdown only, so pages never carry markup the content did not mean."""
    tags = (match.group(0) for match in RAW_HTML.finditer(CODE.sub("", source)))
    return [tag for tag in tags if not AUTOLINK.fullmatch(tag)]


def plain_text(rendered_html: str) -> str:
    """Text of rendered HTML, for search: tags dropped, entities decoded, spaces collapsed."""
    text = re.sub(r"<[^>]+>", " ", rendered_html)
    return re.sub(r"\s+", " ", html.unescape(text)).strip()


def find_ref(games, game_id, ref) -> Ref | None:
    """What ``ref`` (``id`` in the game, or ``game:id``) names, or None."""
    target_game, _, target_id = ref.rpartition(":")
    target_game = target_game or game_id
    game = games.get(target_game)
    found = game.lookup(target_id) if game else None
    if found is None:
        return None
    if isinstance(found, Section):
        return Ref(game=target_game, id=target_id, section=found.id, anchor="", title=found.title, url=found.url)
    return Ref(game=target_game, id=target_id, section=found.section, anchor=found.id, title=found.title, url=found.url)


def link_refs(games, game_id, rendered) -> str:
    """Rendered HTML with its ref: links pointing at the rules they name."""
    def replace(match):
        ref = find_ref(games, game_id, match.group(1))
        return f'href="{ref.url}"' if ref else match.group(0)

    return REF_HREF.sub(replace, rendered)
