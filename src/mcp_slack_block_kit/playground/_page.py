"""The playground page and its script (served from memory; no external assets)."""

from __future__ import annotations

import html
from typing import Final

SAMPLE_MARKDOWN: Final = """\
# Release 2.4 is out :rocket:

Thanks everyone! Here is **what shipped**, what _slipped_ and what we ~~dropped~~.

- Faster deploys (`make ship` now takes **40 s**)
- New [dashboard](https://example.com/dash)
  - per-team views
  - CSV export
- [x] migrate the queue
- [ ] retire the old cron jobs

> Remember: ping the on-call before a rollback.

| Service | p95 (ms) | Status |
|:--------|---------:|:------:|
| api     | 182      | :white_check_mark: |
| search  | 944      | :warning: |

```python
def greet(name: str) -> str:
    return f"Hello, {name}!"
```
"""

_MODES: Final = ("auto", "rich_text", "markdown_block", "section_mrkdwn")
_FLAGS: Final = (
    ("prefer_rich_text", "prefer rich_text", "auto mode never picks the single markdown block"),
    ("decode_html_entities", "decode HTML entities", "repair V11: decode &amp;amp; and friends"),
    ("repair_mismatched_emphasis", "repair emphasis", "repair V6: balance mismatched asterisks"),
)

_CSS: Final = """\
*{box-sizing:border-box}
html,body{height:100%;margin:0}
body{display:flex;flex-direction:column;font:14px/1.45 -apple-system,BlinkMacSystemFont,
"Segoe UI",Lato,"Helvetica Neue",Arial,sans-serif;color:#1d1c1d;background:#f8f8f8}
.top{display:flex;flex-wrap:wrap;align-items:center;gap:8px 20px;padding:10px 16px;
background:#3f0e40;color:#fff}
.brand{font-weight:900;font-size:16px;margin-right:auto}
.brand small{font-weight:400;opacity:.75;margin-left:6px}
.controls{display:flex;flex-wrap:wrap;align-items:center;gap:6px 16px}
.controls label{display:inline-flex;align-items:center;gap:6px;cursor:pointer}
.controls select{font:inherit;padding:2px 6px;border-radius:4px;border:0}
main{flex:1;display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1.25fr);gap:12px;
padding:12px;min-height:0}
.pane{display:flex;flex-direction:column;min-height:0;background:#fff;border:1px solid #ddd;
border-radius:8px;overflow:hidden}
.pane-title{display:flex;flex-wrap:wrap;align-items:center;gap:8px;padding:8px 12px;
font-weight:700;border-bottom:1px solid #eee;background:#fafafa}
textarea{flex:1;width:100%;border:0;resize:none;padding:12px;outline:none;
font:13px/1.55 Monaco,Menlo,Consolas,"Courier New",monospace;color:#1d1c1d}
.pane-title .spacer{flex:1}
textarea::placeholder{color:#8d8c8d}
/* The right column scrolls as a whole: the preview gets all of its visible height (a real
   reply fits without a second scroll bar), the JSON follows below it. */
.right{display:flex;flex-direction:column;gap:12px;overflow:auto;min-height:0}
.right>.pane{flex:none;overflow:visible}
.preview-pane{height:100%;min-height:420px}
iframe{width:100%;height:100%;border:0;background:#f8f8f8}
.stage{position:relative;flex:1;min-height:0}
.stream{position:absolute;inset:0;overflow:auto;padding:12px;background:#f8f8f8}
.bubble{background:#fff;border:1px solid #e2e2e2;border-radius:8px;padding:8px 12px;
margin-bottom:10px}
.bubble .meta{font-size:12px;color:#616061;margin-bottom:4px}
.bubble .text{margin:0;white-space:pre-wrap;word-break:break-word;font:13px/1.5 Monaco,Menlo,
Consolas,monospace}
.bubble.live .text::after{content:"\u258c";color:#1264a3}
pre#json{margin:0;padding:10px 12px;font:12px/1.5 Monaco,Menlo,Consolas,monospace;
background:#fbfbfb;white-space:pre-wrap;overflow-wrap:anywhere}
.jump{font-size:12px;color:#1264a3;text-decoration:none}
.status{order:1;flex-basis:100%;font-weight:400;font-size:12px;color:#616061}
.status:empty{display:none}
.status.error{color:#e01e5a;font-weight:700}
.notes{display:flex;flex-wrap:wrap;gap:6px;padding:0 12px}
.notes:not(:empty){padding:8px 12px;border-bottom:1px solid #eee}
.chip{font:11px/18px Monaco,Menlo,Consolas,monospace;padding:0 6px;border-radius:9px;
background:#e8f5fa;color:#1264a3}
.warning{flex-basis:100%;font-size:12px;color:#8a5a00;background:#fff6e0;border-radius:4px;
padding:4px 8px}
button{font:inherit;font-size:12px;font-weight:700;padding:4px 10px;border-radius:4px;
border:1px solid rgba(29,28,29,.3);background:#fff;cursor:pointer}
button.primary{background:#007a5a;border-color:#007a5a;color:#fff}
button:disabled{opacity:.5;cursor:default}
@media (max-width:900px){main{grid-template-columns:1fr;overflow:auto}
.left{min-height:50vh}.right{overflow:visible}.preview-pane{height:80vh}}
"""

APP_JS: Final = """\
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const md = $("markdown"), frame = $("preview"), json = $("json");
  const notes = $("notes"), status = $("status"), builder = $("builder");
  const flags = ["prefer_rich_text", "decode_html_entities", "repair_mismatched_emphasis"];
  const streamBox = $("stream"), view = $("stream-view");
  let timer = 0, seq = 0, last = null, replayTimer = 0, replaySeq = 0;

  function request() {
    const body = {markdown: md.value, mode: $("mode").value};
    for (const f of flags) body[f] = $(f).checked;
    return body;
  }
  function setStatus(text, cls) { status.textContent = text; status.className = "status " + cls; }
  function showNotes(data) {
    notes.replaceChildren();
    for (const code of data.repairs) {
      const chip = document.createElement("span");
      chip.className = "chip";
      chip.textContent = "repair " + code;
      notes.append(chip);
    }
    for (const w of data.warnings) {
      const div = document.createElement("div");
      div.className = "warning";
      div.textContent = "\\u26a0 " + w;
      notes.append(div);
    }
  }
  async function update() {
    const mine = ++seq;
    setStatus("updating\\u2026", "");
    let resp, data;
    try {
      resp = await fetch("/api/render", {method: "POST",
        headers: {"Content-Type": "application/json"}, body: JSON.stringify(request())});
      data = await resp.json();
    } catch (e) {
      if (mine === seq) setStatus("playground server unreachable", "error");
      return;
    }
    if (mine !== seq) return;  // a newer request is on its way
    if (!resp.ok) { setStatus(data.error || ("HTTP " + resp.status), "error"); return; }
    last = data;
    frame.srcdoc = data.html;
    json.textContent = JSON.stringify(data.blocks, null, 2);
    showNotes(data);
    builder.disabled = false;
    setStatus(data.blocks.length + " block" + (data.blocks.length === 1 ? "" : "s") +
      " \\u00b7 Builder link " + data.preview_byte_size + " bytes" +
      (data.preview_truncated ? " (over 8 KB: may not open)" : ""), "ok");
    document.body.dataset.rendered = String(mine);
    if (streamBox.checked) replay();
  }
  function stopReplay() { clearInterval(replayTimer); replayTimer = 0; }
  function bubbleFor(bubbles, index) {
    while (bubbles.length <= index) {
      const div = document.createElement("div"), meta = document.createElement("div");
      const text = document.createElement("pre");
      div.className = "bubble";
      meta.className = "meta";
      meta.textContent = "message " + (bubbles.length + 1);
      text.className = "text";
      div.append(meta, text);
      view.append(div);
      bubbles.push(div);
    }
    return bubbles[index];
  }
  // Replay the Markdown as a model's deltas; show each message as the stream commits it.
  async function replay() {
    stopReplay();
    const mine = ++replaySeq;
    const body = request();
    body.delta_chars = 4;
    let resp, data;
    try {
      resp = await fetch("/api/stream", {method: "POST",
        headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
      data = await resp.json();
    } catch (e) {
      if (mine === replaySeq) setStatus("playground server unreachable", "error");
      return;
    }
    if (mine !== replaySeq || !streamBox.checked) return;
    if (!resp.ok) { setStatus(data.error || ("HTTP " + resp.status), "error"); return; }
    view.replaceChildren();
    delete document.body.dataset.streamed;
    const bubbles = [], n = data.deltas.length, step = Math.max(1, Math.ceil(n / 400));
    let d = 0, k = 0, typed = 0, committed = 0, live = null;
    function tick() {
      const until = Math.min(n, d + step);
      for (; d < until; d++) typed += data.deltas[d].length;
      while (k < data.events.length && data.events[k].delta < (d >= n ? n + 1 : d)) {
        const e = data.events[k++], bubble = bubbleFor(bubbles, e.message);
        bubble.lastChild.textContent += e.text;
        committed += e.text.length;
        if (live !== bubble) { if (live) live.classList.remove("live"); live = bubble; }
        bubble.classList.add("live");
      }
      const done = d >= n && k >= data.events.length;
      setStatus((done ? "streamed" : "streaming") + " \u00b7 model typed " + typed +
        " chars \u00b7 committed " + committed + " in " + bubbles.length + " message" +
        (bubbles.length === 1 ? "" : "s"), "ok");
      if (done) {
        stopReplay();
        if (live) live.classList.remove("live");
        document.body.dataset.streamed = String(mine);
      }
    }
    replayTimer = setInterval(tick, 25);
    tick();
  }
  function schedule() { clearTimeout(timer); timer = setTimeout(update, 250); }

  md.addEventListener("input", schedule);
  $("mode").addEventListener("change", update);
  for (const f of flags) $(f).addEventListener("change", update);
  streamBox.addEventListener("change", () => {
    view.hidden = !streamBox.checked;
    if (streamBox.checked) replay(); else { stopReplay(); replaySeq++; update(); }
  });
  $("copy").addEventListener("click", async () => {
    const text = json.textContent;
    try {
      await navigator.clipboard.writeText(text);
    } catch (e) {
      const range = document.createRange();
      range.selectNodeContents(json);
      const sel = window.getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
      document.execCommand("copy");
    }
    $("copy").textContent = "Copied";
    setTimeout(() => { $("copy").textContent = "Copy JSON"; }, 1200);
  });
  builder.addEventListener("click", () => {
    if (last) window.open(last.preview_url, "_blank", "noopener,noreferrer");
  });
  update();
})();
"""


def _controls() -> str:
    modes = "".join(f'<option value="{m}">{m}</option>' for m in _MODES)
    flags = "".join(
        f'<label title="{html.escape(tip)}"><input type="checkbox" id="{name}"> {label}</label>'
        for name, label, tip in _FLAGS)
    stream = ('<label title="replay the Markdown as a model streams it and show what each '
              'message commits"><input type="checkbox" id="stream"> stream</label>')
    return f'<label>mode <select id="mode">{modes}</select></label>{flags}{stream}'


_SAMPLE_HTML: Final = html.escape(SAMPLE_MARKDOWN)
_PLACEHOLDER: Final = html.escape(
    "Paste or type the Markdown a model wrote: **bold**, - lists, | tables |, ```code```, "
    "links, :emoji:, @mentions…")

PAGE_HTML: Final = f"""\
<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Block Kit playground</title>
<style>{_CSS}</style>
<script src="/app.js" defer></script>
</head><body>
<header class="top"><div class="brand">Block Kit playground<small>mcp-slack-block-kit</small></div>
<div class="controls">{_controls()}</div></header>
<main>
<section class="pane left"><div class="pane-title">Markdown</div>
<textarea id="markdown" spellcheck="false" aria-label="Markdown"
placeholder="{_PLACEHOLDER}">{_SAMPLE_HTML}</textarea>
</section>
<div class="right">
<section class="pane preview-pane">
<div class="pane-title">Preview <span class="spacer"></span><span id="status" class="status"></span>
<a class="jump" href="#json-pane">JSON \u2193</a>
<button id="copy" type="button">Copy JSON</button>
<button id="builder" type="button" class="primary" disabled>Open in Block Kit Builder</button>
</div>
<div id="notes" class="notes" aria-live="polite"></div>
<div class="stage"><iframe id="preview" sandbox="" title="Slack message preview"></iframe>
<div id="stream-view" class="stream" hidden aria-live="off" aria-label="Streamed messages"></div>
</div>
</section>
<section class="pane json-pane" id="json-pane"><div class="pane-title">Block Kit JSON</div>
<pre id="json" aria-label="Block Kit JSON"></pre>
</section>
</div>
</main>
</body></html>
"""
