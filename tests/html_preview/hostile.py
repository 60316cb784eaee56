"""Hostile Block Kit payloads for the preview, and a browser-grade check of what they render.

``payloads()`` builds structurally valid input (every block type render_html draws, every
element and field it reads) whose leaf strings are built from attack fragments. ``check()``
parses a rendered page with html5lib (the WHATWG tree builder, so the tree is the one a
browser builds) and lists everything that did not come from the renderer itself.
``twin()`` is the differential half: the same payload with every HTML-significant
character of each leaf swapped for an inert look-alike, which renders to the same element
skeleton unless a leaf reached the page as markup.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Final
from xml.etree.ElementTree import Element

import html5lib
from hypothesis import strategies as st

from mcp_slack_block_kit.html_preview._css import CSS
from mcp_slack_block_kit.html_preview._render import _CSP

# -- the leaves ---------------------------------------------------------------------------

FRAGMENTS: Final = (
    "<svg onload=x>", "<svg/onload=window.__pwned=1>", '"><script>window.__pwned=1</script>',
    "</style><style>*{color:red}</style>", "<style>", "</style>", "javascript:alert(1)",
    "url(javascript:x)", "url(", "expression(alert(1))", "'", '"', "\\", "`", "=", "<", ">",
    "&", "&lt;", "&gt;", "&amp;", "&#x3c;", "&#60;", "<!--", "-->", "<![CDATA[", "]]>",
    "<img src=x onerror=alert(1)>", "' onmouseover='x", '" onclick="x', "/", " ", "\t", "\n",
    "\r", "\x00", "\x01", "\x0b", "\x1f", "\x7f", "\x85", "\u2028", "\u202e", "\ud800",
    "\udfff", "\ufeff", "\x0bjavascript:x", "java\tscript:x", "JaVaScRiPt:x", "vbscript:x",
    "data:text/html,<script>x</script>", "https://ok.example/", "<https://ok.example|x>",
    "<javascript:x|y>", "<!channel|x>", "<@U123|x>", "<#C1|x>", "<!subteam^S1|x>", "<!here>",
    "<@U123>", "<!date^1^{date}^javascript:x|f>", "*", "_", "~", ":", ":smile:", ":x:", "|",
    "[x](javascript:x)", "[x](<\x0bjavascript:x>)", "![i](javascript:x)", "```", "> ", "&gt; ",
    "3c-73-76-67", "1f600-1f3fb", "{date}", "a", "Z9", "é", "😀",
)

_fragments = st.sampled_from(FRAGMENTS)
TEXT: Final = st.one_of(
    st.lists(_fragments, min_size=1, max_size=5).map("".join),
    st.lists(st.one_of(_fragments, st.text(max_size=6)), max_size=5).map("".join),
)
_URL_HEADS: Final = ("https://ok.example/", "http://ok.example/?q=", "mailto:a@ok.example?x=",
                     "HTTPS://OK.EXAMPLE/", "javascript:", "\x0bjavascript:", "\x01https://x/",
                     " https://ok.example/", "java\tscript:", "java\nscript:", "vbscript:",
                     "file:///", "data:text/html,", "data:image/png;base64,", "//ok.example/",
                     "")
URL: Final = st.one_of(
    st.tuples(st.sampled_from(_URL_HEADS), TEXT).map("".join),
    st.sampled_from(_URL_HEADS),
    st.just("data:image/png;base64,iVBORw0KGgo="),
)
# Code points that spell markup or control characters, next to real emoji parts.
_POINTS: Final = (0x3C, 0x3E, 0x22, 0x27, 0x26, 0x2F, 0x3D, 0x20, 0x0, 0x0B, 0x7F, 0x85,
                  0x202E, 0x2028, 0xD800, 0xE000, 0xFFFE, 0x1F600, 0x1F3FB, 0x200D, 0xFE0F,
                  0x23, 0x20E3, 0x2764, 0xE0067, 0x1F1FA, 0x1F1F8)
_hex: Final = lambda points: "-".join(f"{p:x}" for p in points)  # noqa: E731
UNICODE: Final = st.one_of(
    st.lists(st.one_of(st.sampled_from(_POINTS), st.integers(0, 0x10FFFF)),
             min_size=1, max_size=11).map(_hex),
    # An attack fragment spelled as code points (the field holds at most ten).
    _fragments.map(lambda f: _hex(map(ord, f[:10]))),
    TEXT,
)
NUMBER: Final = st.one_of(st.integers(-3, 12), st.integers(), st.none(), TEXT, st.booleans())


def _obj(**fields: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    """A dict with every field present (hostile values never make a key disappear)."""
    return st.fixed_dictionaries(fields)


def _const(value: str) -> st.SearchStrategy[str]:
    return st.just(value)


def _kind(*known: str) -> st.SearchStrategy[str]:
    """A known type name, or a hostile one (drawn as an unknown-type label)."""
    return st.one_of(st.sampled_from(known), TEXT)


PLAIN = _obj(type=_const("plain_text"), text=TEXT, emoji=st.booleans())
MRKDWN = _obj(type=_const("mrkdwn"), text=TEXT, verbatim=st.booleans())
TEXT_OBJ = st.one_of(PLAIN, MRKDWN, _obj(type=TEXT, text=TEXT))
IMAGE_EL = _obj(type=_const("image"), image_url=URL, alt_text=TEXT)
ELEMENT_KINDS: Final = {
    "button": _obj(type=_const("button"), text=PLAIN, url=URL, value=TEXT, action_id=TEXT,
                   style=st.one_of(st.sampled_from(["primary", "danger"]), TEXT),
                   accessibility_label=TEXT),
    "button_no_url": _obj(type=_const("button"), text=PLAIN, style=TEXT),
    "image": IMAGE_EL,
    "overflow": _obj(type=_const("overflow"),
                     options=st.lists(_obj(text=PLAIN, value=TEXT), max_size=2)),
    "select": _obj(type=st.sampled_from(["static_select", "users_select", "datepicker",
                                         "timepicker"]),
                   placeholder=PLAIN, initial_option=_obj(text=PLAIN, value=TEXT)),
    "select_initial": _obj(type=_const("static_select"), initial_option=_obj(text=PLAIN)),
    "unknown": _obj(type=TEXT, text=PLAIN),
}
ELEMENT = st.one_of(*ELEMENT_KINDS.values())
_STYLE = st.dictionaries(st.sampled_from(["bold", "italic", "strike", "code", "underline"]),
                         st.one_of(st.booleans(), TEXT), max_size=5)
INLINE_KINDS: Final = {
    "text": _obj(type=_const("text"), text=TEXT, style=_STYLE),
    "link": _obj(type=_const("link"), url=URL, text=TEXT, style=_STYLE),
    "link_no_text": _obj(type=_const("link"), url=URL),
    "emoji": _obj(type=_const("emoji"), name=TEXT, unicode=UNICODE, skin_tone=NUMBER),
    "user": _obj(type=_const("user"), user_id=TEXT),
    "channel": _obj(type=_const("channel"), channel_id=TEXT),
    "usergroup": _obj(type=_const("usergroup"), usergroup_id=TEXT),
    "team": _obj(type=_const("team"), team_id=TEXT),
    "broadcast": _obj(type=_const("broadcast"),
                      range=st.one_of(st.sampled_from(["here", "channel"]), TEXT)),
    "date": _obj(type=_const("date"), timestamp=NUMBER, format=TEXT, fallback=TEXT, url=URL,
                 style=_STYLE),
    "date_valid": _obj(type=_const("date"), timestamp=st.integers(0, 2**31), format=TEXT,
                       fallback=TEXT),
    "color": _obj(type=_const("color"),
                  value=st.one_of(st.sampled_from(["#abc", "#A1B2C3"]), TEXT)),
    "unknown": _obj(type=TEXT, text=TEXT),
}
INLINE = st.one_of(*INLINE_KINDS.values())
_INLINES = st.lists(INLINE, max_size=4)
SECTION = _obj(type=_const("rich_text_section"), elements=_INLINES)
RICH_ELEMENT = st.one_of(
    SECTION,
    _obj(type=_const("rich_text_list"), style=st.one_of(st.sampled_from(["ordered", "bullet"]),
                                                         TEXT),
         indent=NUMBER, offset=NUMBER, border=NUMBER, elements=st.lists(SECTION, max_size=3)),
    _obj(type=_const("rich_text_quote"), elements=_INLINES, border=NUMBER),
    _obj(type=_const("rich_text_preformatted"), language=TEXT, border=NUMBER,
         elements=st.lists(st.one_of(
             _obj(type=_const("text"), text=TEXT),
             _obj(type=_const("link"), url=URL, text=TEXT)), max_size=3)),
    _obj(type=TEXT, elements=_INLINES),
)
RICH_ELEMENTS = st.lists(RICH_ELEMENT, max_size=3)
CELL = st.one_of(
    _obj(type=_const("raw_text"), text=TEXT),
    _obj(type=_const("rich_text"), elements=RICH_ELEMENTS),
    _obj(type=TEXT, value=st.one_of(TEXT, st.integers(), st.floats(allow_nan=False))),
)


def _block(kind: str, **fields: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    return _obj(type=_const(kind), block_id=TEXT, **fields)


BLOCK_KINDS: Final = {
    "header": _block("header", text=PLAIN),
    "section": _block("section", text=TEXT_OBJ, fields=st.lists(TEXT_OBJ, max_size=3),
                      accessory=ELEMENT),
    "section_mrkdwn": _block("section", text=MRKDWN),
    "divider": _block("divider"),
    "image": _block("image", image_url=URL, alt_text=TEXT, title=PLAIN),
    "image_slack_file": _block("image", slack_file=_obj(url=URL, id=TEXT), alt_text=TEXT),
    "context": _block("context", elements=st.lists(st.one_of(IMAGE_EL, PLAIN, MRKDWN, ELEMENT),
                                                   max_size=3)),
    "actions": _block("actions", elements=st.lists(ELEMENT, max_size=3)),
    "rich_text": _block("rich_text", elements=RICH_ELEMENTS),
    "table": _block("table", rows=st.lists(st.lists(CELL, max_size=3), max_size=3),
                    column_settings=st.lists(_obj(align=st.one_of(
                        st.sampled_from(["left", "center", "right"]), TEXT),
                        is_wrapped=st.booleans()), max_size=3)),
    "markdown": _block("markdown", text=TEXT),
    "plan": _block("plan", title=TEXT, tasks=st.lists(_obj(
        type=_const("task_card"), task_id=TEXT, title=TEXT,
        status=st.one_of(st.sampled_from(["pending", "in_progress", "complete", "error"]), TEXT),
        details=_obj(type=_const("rich_text"), elements=RICH_ELEMENTS),
        output=_obj(type=_const("rich_text"), elements=RICH_ELEMENTS),
        sources=st.lists(_obj(type=_const("url"), url=URL, text=TEXT), max_size=2)),
        max_size=3)),
    "task_card": _block("task_card", task_id=TEXT, title=TEXT, status=TEXT,
                        details=_obj(type=_const("rich_text"), elements=RICH_ELEMENTS),
                        sources=st.lists(_obj(type=_const("url"), url=URL, text=TEXT),
                                         max_size=2)),
    "context_actions": _block("context_actions", elements=st.lists(st.one_of(
        _obj(type=_const("feedback_buttons"), action_id=TEXT,
             positive_button=_obj(text=PLAIN, value=TEXT),
             negative_button=_obj(text=PLAIN, value=TEXT, accessibility_label=TEXT)),
        ELEMENT), max_size=3)),
    "unknown": _obj(type=TEXT, block_id=TEXT, text=TEXT_OBJ),
}
BLOCK = st.one_of(*BLOCK_KINDS.values())
BLOCKS = st.lists(BLOCK, min_size=1, max_size=4)
# The three input shapes render_html accepts: blocks, one payload, a list of messages.
PAYLOAD = st.one_of(
    BLOCKS,
    _obj(blocks=BLOCKS, text=TEXT),
    st.lists(_obj(blocks=BLOCKS, text=TEXT), min_size=1, max_size=3),
)



def focused(family: str, kind: str) -> st.SearchStrategy[Any]:
    """Blocks that exercise one block, element or inline kind (so each gets many draws)."""
    if family == "block":
        return st.lists(BLOCK_KINDS[kind], min_size=1, max_size=3)
    if family == "element":
        el = ELEMENT_KINDS[kind]
        return st.tuples(st.lists(el, min_size=1, max_size=3), el, el).map(lambda t: [
            {"type": "actions", "elements": t[0]},
            {"type": "section", "text": {"type": "mrkdwn", "text": "s"}, "accessory": t[1]},
            {"type": "context", "elements": [t[2]]}])
    inline = st.lists(INLINE_KINDS[kind], min_size=1, max_size=4)
    return st.tuples(inline, inline).map(lambda t: [
        {"type": "rich_text", "elements": [{"type": "rich_text_section", "elements": t[0]}]},
        {"type": "table", "rows": [[{"type": "rich_text", "elements": [
            {"type": "rich_text_quote", "elements": t[1]}]}]]}])


KINDS: Final = ([("block", k) for k in BLOCK_KINDS] + [("element", k) for k in ELEMENT_KINDS]
                + [("inline", k) for k in INLINE_KINDS])


# -- hand-made attacks --------------------------------------------------------------------


def _emoji(chars: str, name: str = "a") -> dict[str, Any]:
    return {"type": "emoji", "name": name, "unicode": "-".join(f"{ord(c):x}" for c in chars)}


# Emoji elements whose ``unicode`` spells markup, ten code points at a time: chained, they
# once built an <svg onload> (its script in the third element's name) and a <style> rule.
EMOJI_CHAIN: Final = [{"type": "rich_text", "elements": [{"type": "rich_text_section",
                                                        "elements": [
    _emoji("<svg/x='"), _emoji("'onload='1"), _emoji("'>", name="/;window.__pwned=1;//"),
    _emoji("<style>"), _emoji("{}*{"), _emoji(";order:7;"), _emoji("}</style>")]}]}]


def showcase() -> list[dict[str, Any]]:
    """One message with an attack in every kind of field, for the browser and a screenshot.

    Every script sets ``window.__pwned``, every style rule sets ``order:7``.
    """
    script = "<svg onload=window.__pwned=2><img src=x onerror=window.__pwned=3>"
    style = "</style><style>*{order:7}</style>"
    bad = "\x0bjavascript:window.__pwned=4"
    return [
        {"type": "header", "text": {"type": "plain_text", "text": f"Header {script}"}},
        {"type": "section",
         "text": {"type": "mrkdwn", "text": f"*mrkdwn* {script} {style} <{bad}|refused link> "
                                            "<!channel|x> <@U0123ABCD|x> <#C1|x> "
                                            "<https://ok.example|a real link> <!here>"},
         "fields": [{"type": "plain_text", "text": '"><script>window.__pwned=5</script>'},
                    {"type": "mrkdwn", "text": "<java\tscript:window.__pwned=6|tab link>"}],
         "accessory": {"type": "button", "text": {"type": "plain_text", "text": "Go"},
                       "url": bad, "style": "primary\" onclick=\"window.__pwned=7"}},
        *EMOJI_CHAIN,
        {"type": "rich_text", "elements": [
            {"type": "rich_text_section", "elements": [
                {"type": "text", "text": f"rich {style}", "style": {"bold": True}},
                {"type": "link", "url": bad, "text": "rich link"},
                {"type": "user", "user_id": 'U1"><b onmouseover=window.__pwned=8>'},
                {"type": "color", "value": "#abc;background:url(x)"},
                {"type": "date", "timestamp": 0, "format": "{date} " + script,
                 "fallback": script, "url": "\x01https://ok.example"}]},
            {"type": "rich_text_preformatted", "language": f"py{script}",
             "elements": [{"type": "text", "text": f"code {style}"}]}]},
        {"type": "image", "image_url": "javascript:window.__pwned=9", "alt_text": f"alt {script}"},
        {"type": "context", "elements": [
            {"type": "image", "image_url": "\x0bhttps://ok.example/i.png", "alt_text": script},
            {"type": "mrkdwn", "text": f"context {style}"}]},
        {"type": "table", "rows": [[{"type": "raw_text", "text": script},
                                    {"type": "raw_text", "text": style}]],
         "column_settings": [{"align": 'left" style="order:7'}]},
        {"type": "markdown", "text": f"**markdown** {script}\n\n[md link](<{bad}>) {style}"},
        {"type": f"unknown{script}"},
    ]


# -- the differential twin ----------------------------------------------------------------

# Inert look-alikes (fullwidth forms) for the characters that make or break out of markup.
# The preview gives them no meaning in literal fields, and safe URLs stay safe with them.
_HTML_TWIN: Final = str.maketrans({"<": "＜", ">": "＞", '"': "＂", "'": "＇", "&": "＆"})
# In mrkdwn, < > & are syntax of their own (links, mentions, &gt; quotes): only the quotes
# are swapped, for characters mrkdwn treats the same way (both end a bare URL).
_MRKDWN_TWIN: Final = str.maketrans({'"': ".", "'": ","})
_MARKUP_POINTS: Final = {0x3C: 0xFF1C, 0x3E: 0xFF1E, 0x22: 0xFF02, 0x27: 0xFF07, 0x26: 0xFF06}


def _twin_unicode(value: str) -> str:
    """The ``unicode`` hex field with markup code points swapped for their look-alikes."""
    parts = value.split("-")
    if not all(re.fullmatch(r"[0-9A-Fa-f]{1,6}", part) for part in parts):
        return value.translate(_HTML_TWIN)
    return "-".join(f"{_MARKUP_POINTS.get(int(p, 16), int(p, 16)):x}" for p in parts)


def twin(value: Any, owner: dict[str, Any] | None = None, key: str = "") -> Any:
    """``value`` with each leaf string made inert; block and element structure unchanged.

    Markdown block text keeps every character (all punctuation is Markdown syntax), so
    for those leaves only the parser checks apply.
    """
    if isinstance(value, dict):
        return {k: twin(v, value, k) for k, v in value.items()}
    if isinstance(value, list):
        return [twin(v, owner, key) for v in value]
    if not isinstance(value, str):
        return value
    kind = owner.get("type") if owner is not None else None
    if key == "text" and kind == "markdown":
        return value
    if key == "text" and kind == "mrkdwn":
        return value.translate(_MRKDWN_TWIN)
    if key == "unicode" and kind == "emoji":
        return _twin_unicode(value)
    return value.translate(_HTML_TWIN)  # a known type name has none of these characters


# -- the checks ---------------------------------------------------------------------------

# Per element, the attributes render_html writes; anything else came from content.
VOCABULARY: Final = {
    "html": {"lang"}, "head": set(), "meta": {"charset", "content", "http-equiv", "name"},
    "title": set(), "style": set(), "body": set(), "main": {"class"},
    "div": {"class", "role", "aria-hidden"}, "article": {"class", "aria-label"},
    "span": {"class", "title", "role", "aria-label", "style"},
    "a": {"class", "href", "target", "rel"}, "b": set(), "i": set(), "s": set(), "u": set(),
    "code": {"class"}, "pre": {"class"}, "blockquote": {"class"}, "ul": {"class", "style"},
    "ol": {"class", "style", "start"}, "li": {"class"}, "hr": {"class"}, "br": set(),
    "img": {"class", "src", "alt", "loading", "referrerpolicy"}, "table": {"class"},
    "thead": set(), "tbody": set(), "tr": {"class"}, "td": {"class"}, "p": {"class"},
}
CLASSES: Final = frozenset(re.findall(r"\.(sbk-[a-z0-9-]+)", CSS)) | {
    "sbk-rich", "sbk-blocks", "sbk-image", "sbk-table-wrap", "sbk-md-li", "sbk-indent-0",
    "sbk-align-left", *(f"sbk-md-h{n}" for n in range(1, 7)),
    *(f"sbk-mention-{k}" for k in ("user", "channel", "usergroup", "team")),
}
# Values the page's own markup uses; content never reaches these attributes.
_FIXED_VALUES: Final = {
    ("a", "target"): {"_blank"}, ("a", "rel"): {"noopener noreferrer nofollow"},
    ("img", "loading"): {"lazy"}, ("img", "referrerpolicy"): {"no-referrer"},
    ("img", "alt"): {""}, ("div", "aria-hidden"): {"true"}, ("div", "role"): {"separator"},
    ("span", "role"): {"img"},
}
_STYLE_ATTR: Final = re.compile(r"list-style-type:(?:disc|circle|square|decimal|lower-alpha|"
                                r"lower-roman)|background:#(?:[0-9a-fA-F]{3}){1,2}")
_HREF_SCHEMES: Final = ("http", "https", "mailto")
_IMG_DATA: Final = re.compile(r"data:image/(?:png|gif|jpeg|webp);base64,[A-Za-z0-9+/=]+",
                              re.IGNORECASE)
_SCHEME: Final = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):")


def browser_scheme(url: str) -> str | None:
    """The scheme a browser would follow for ``url`` (WHATWG URL parsing: leading and
    trailing C0 controls and spaces are stripped, tabs and newlines removed anywhere)."""
    url = re.sub(r"[\t\n\r]", "", url.strip("".join(map(chr, range(0x21)))))
    m = _SCHEME.match(url)
    return m.group(1).lower() if m else None


@dataclass(frozen=True)
class Parsed:
    """A page as html5lib's WHATWG tree builder sees it."""

    elements: list[Element]
    depths: list[int]
    comments: int

    def local_tags(self) -> list[str]:
        """Element names without their namespace (``svg`` rather than ``{…svg}svg``)."""
        return [el.tag.rpartition("}")[2] for el in self.elements]

    def skeleton(self) -> list[tuple[int, str, tuple[str, ...], tuple[tuple[str, str], ...]]]:
        """Each element in document order: its depth, tag, attribute names, and the
        attribute values that are not content (so nesting changes show too)."""
        free = {"title", "aria-label", "href", "src", "alt", "content"}
        return [(self.depths[i], el.tag, tuple(sorted(el.attrib)),
                 tuple(sorted((k, v) for k, v in el.attrib.items() if k not in free)))
                for i, el in enumerate(self.elements)]


def parse(page: str) -> Parsed:
    """Parse ``page`` as a browser would (html5lib's WHATWG tree construction)."""
    root = html5lib.parse(page, treebuilder="etree", namespaceHTMLElements=False)
    elements: list[Element] = []
    depths: list[int] = []
    comments = 0
    pending: list[tuple[Element, int]] = [(root, 0)]
    while pending:
        el, depth = pending.pop()
        if not isinstance(el.tag, str):
            comments += 1  # ElementTree marks comments with a function as the tag
            continue
        elements.append(el)
        depths.append(depth)
        pending.extend((child, depth + 1) for child in reversed(el))
    return Parsed(elements, depths, comments)


def problems(page: str) -> list[str]:
    """Everything in ``page`` that the renderer did not write itself."""
    parsed = parse(page)
    out: list[str] = []
    if parsed.comments:
        out.append(f"{parsed.comments} comment node(s)")
    styles = [el for el in parsed.elements if el.tag == "style"]
    if len(styles) != 1 or styles[0].text != CSS:
        out.append("the page's <style> is not exactly the renderer's stylesheet")
    metas = [dict(el.attrib) for el in parsed.elements if el.tag == "meta"]
    if not any(m.get("http-equiv") == "Content-Security-Policy" and m.get("content") == _CSP
               for m in metas) or len(metas) != 4:
        out.append(f"unexpected <meta> elements {metas}")
    for el in parsed.elements:
        allowed = VOCABULARY.get(el.tag)
        if allowed is None:
            space, _, local = el.tag.rpartition("}")
            out.append(f"element <{local}>" + (f" in namespace {space[1:]}" if space else ""))
            continue
        for name, value in el.attrib.items():
            if name not in allowed:
                out.append(f"attribute {name}={value!r} on <{el.tag}>")
            elif (el.tag, name) in _FIXED_VALUES and value not in _FIXED_VALUES[el.tag, name]:
                out.append(f"{el.tag} {name}={value!r}")
            elif name == "class" and not set(value.split()) <= CLASSES:
                out.append(f"class {value!r}")
            elif name == "style" and not _STYLE_ATTR.fullmatch(value):
                out.append(f"style {value!r}")
            elif name == "href" and (browser_scheme(value) not in _HREF_SCHEMES
                                     or not value.lower().startswith(_HREF_SCHEMES)):
                out.append(f"href {value!r}")
            elif name == "src" and not (_IMG_DATA.fullmatch(value) or (
                    browser_scheme(value) in ("http", "https")
                    and value.lower().startswith(("http://", "https://")))):
                out.append(f"src {value!r}")
            elif re.search(r"url\(|expression\(", value, re.IGNORECASE) and name in (
                    "style", "class"):
                out.append(f"{name} carries {value!r}")
    return out
