"""The page's one inline stylesheet: Slack's light theme, with no external fonts or images."""

from __future__ import annotations

from typing import Final

# Colours and metrics follow Slack's light theme as its web client draws messages:
# text #1d1c1d at 15px/22px, links #1264a3, mention pills on a 10 % blue tint, broadcasts
# on yellow, code in #e01e5a on a faint grey box, quotes with a 4px left bar.
CSS: Final = """\
*{box-sizing:border-box}
html{background:#f8f8f8}
body{margin:0;padding:24px;color:#1d1c1d;font:15px/1.46668 -apple-system,BlinkMacSystemFont,
"Segoe UI",Lato,"Helvetica Neue",Roboto,"Noto Sans",Arial,sans-serif,"Apple Color Emoji",
"Segoe UI Emoji","Noto Color Emoji";-webkit-font-smoothing:antialiased}
.sbk-page{max-width:780px;margin:0 auto;background:#fff;border:1px solid #dddddd;
border-radius:8px;box-shadow:0 1px 3px rgba(0,0,0,.08);overflow:hidden}
.sbk-channel-bar{display:flex;align-items:center;gap:8px;padding:12px 20px;
border-bottom:1px solid #e8e8e8;font-weight:900;font-size:18px}
.sbk-channel-bar .sbk-channel-hint{font-weight:400;font-size:13px;color:#616061}
.sbk-boundary{display:flex;align-items:center;gap:10px;margin:6px 20px;color:#616061;
font-size:12px;font-weight:700;letter-spacing:.02em;text-transform:uppercase}
.sbk-boundary::before,.sbk-boundary::after{content:"";flex:1;border-top:1px dashed #c8c8c8}
.sbk-message{padding:8px 20px 10px}
.sbk-message:hover{background:#f8f8f8}
.sbk-notification{margin:0 0 8px 48px;padding:6px 10px;border-radius:6px;background:#f4f4f4;
border:1px solid #e8e8e8;font-size:13px;color:#454245;overflow-wrap:anywhere}
.sbk-notification-label{display:inline-block;margin-right:6px;color:#616061;font-weight:700}
.sbk-msg-row{display:flex;gap:8px}
.sbk-avatar{flex:0 0 36px;width:36px;height:36px;border-radius:8px;background:#4a154b;
color:#fff;display:flex;align-items:center;justify-content:center;font-weight:900;
font-size:15px;margin-top:2px}
.sbk-msg-body{flex:1;min-width:0}
.sbk-msg-meta{display:flex;align-items:baseline;gap:6px;line-height:22px}
.sbk-sender{font-weight:900}
.sbk-app-badge{background:rgba(29,28,29,.13);color:rgba(29,28,29,.7);font-size:10px;
font-weight:700;padding:1px 3px;border-radius:2px;line-height:1.25}
.sbk-time{color:#616061;font-size:12px}
.sbk-empty{color:#616061;font-style:italic}
.sbk-block{margin:4px 0;overflow-wrap:anywhere}
.sbk-header{font-size:18px;font-weight:900;line-height:1.33;margin:8px 0 4px}
.sbk-section{display:flex;gap:12px;align-items:flex-start}
.sbk-section-body{flex:1;min-width:0}
.sbk-section-text,.sbk-field,.sbk-rt-section,.sbk-quote,.sbk-list li,.sbk-context-text{
white-space:pre-wrap}
.sbk-para{display:block}
.sbk-fields{display:grid;grid-template-columns:1fr 1fr;gap:8px 16px;margin-top:8px}
.sbk-accessory{flex:0 0 auto}
.sbk-accessory .sbk-img-frame{width:88px;height:88px;min-width:0;min-height:0}
.sbk-accessory .sbk-img{max-width:88px;max-height:88px;margin:auto}
.sbk-divider{border:0;border-top:1px solid rgba(29,28,29,.13);margin:12px 0}
b,strong{font-weight:700}
.sbk-link{color:#1264a3;text-decoration:none}
a.sbk-link:hover{text-decoration:underline}
.sbk-link-refused{color:#616061;text-decoration:underline dotted}
.sbk-mention{border-radius:3px;padding:0 2px;color:#1264a3;background:rgba(29,155,209,.1);
font-weight:400}
.sbk-mention-broadcast{color:#1d1c1d;background:rgba(242,199,68,.4)}
.sbk-code{font-family:Monaco,Menlo,Consolas,"Courier New",monospace;font-size:12px;
color:#e01e5a;background:rgba(29,28,29,.04);border:1px solid rgba(29,28,29,.13);
border-radius:3px;padding:2px 3px 1px;font-variant-ligatures:none;white-space:pre-wrap}
.sbk-pre{position:relative;margin:4px 0;padding:8px;font:12px/1.50001 Monaco,Menlo,Consolas,
"Courier New",monospace;background:rgba(29,28,29,.04);border:1px solid rgba(29,28,29,.13);
border-radius:4px;white-space:pre-wrap;word-break:normal;overflow-wrap:anywhere;
font-variant-ligatures:none}
.sbk-pre-lang{float:right;margin:-4px -4px 4px 8px;padding:0 6px;border-radius:3px;
background:rgba(29,28,29,.08);color:#616061;font:11px/18px -apple-system,"Segoe UI",Lato,
Arial,sans-serif}
.sbk-quote{position:relative;margin:4px 0;padding:0 0 0 16px}
.sbk-quote::before{content:"";position:absolute;left:0;top:0;bottom:0;width:4px;
border-radius:8px;background:#dddddd}
.sbk-list{margin:0;padding:0 0 0 28px}
.sbk-list li{padding-left:2px}
.sbk-indent-1{margin-left:28px}.sbk-indent-2{margin-left:56px}.sbk-indent-3{margin-left:84px}
.sbk-indent-4{margin-left:112px}.sbk-indent-5{margin-left:140px}
.sbk-indent-6{margin-left:168px}.sbk-indent-7{margin-left:196px}
.sbk-indent-8{margin-left:224px}
.sbk-list-border{border-left:4px solid #dddddd}
.sbk-task{font-family:Monaco,Menlo,Consolas,monospace;font-size:12px;color:#616061}
.sbk-task-done{color:#007a5a}
.sbk-markdown .sbk-task{font:16px/1 inherit;font-family:inherit}
.sbk-emoji{font-size:1.1em;line-height:1}
.sbk-emoji-unknown{font-size:1em;color:#616061}
.sbk-date{border-bottom:1px dotted #616061}
.sbk-color{font-family:Monaco,Menlo,Consolas,monospace;font-size:12px}
.sbk-swatch{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:4px;
border:1px solid rgba(29,28,29,.2);vertical-align:baseline}
.sbk-img-frame{position:relative;display:inline-block;min-width:240px;min-height:120px;
max-width:100%;border-radius:8px;overflow:hidden;background:#f4f4f4;
border:1px solid rgba(29,28,29,.13);vertical-align:top}
.sbk-img-ph{position:absolute;inset:0;display:flex;flex-direction:column;align-items:center;
justify-content:center;gap:4px;padding:8px;text-align:center;color:#616061;font-size:13px}
.sbk-img-ph-icon{font-size:28px;line-height:1}
/* No width/height on the <img>: a failed load (offline) then collapses to nothing, with
   alt="", and the labelled placeholder underneath stays visible. */
.sbk-img{position:relative;display:block;max-width:100%;max-height:360px;background:#fff}
.sbk-img-note{font-size:11px}
.sbk-image-title{font-size:13px;color:#616061;margin-bottom:4px}
.sbk-context{display:flex;flex-wrap:wrap;align-items:center;gap:4px 8px;font-size:13px;
color:#616061;line-height:1.38463}
.sbk-context .sbk-img-frame{width:20px;height:20px;min-width:0;min-height:0;border-radius:4px}
.sbk-context .sbk-img-ph{font-size:0}
.sbk-context .sbk-img-ph-icon{font-size:12px}
.sbk-context .sbk-img{max-width:20px;max-height:20px}
.sbk-actions{display:flex;flex-wrap:wrap;gap:8px;margin:8px 0}
.sbk-plan{border:1px solid #ddd;border-radius:8px;padding:8px 12px}
.sbk-plan-title{font-weight:700;margin-bottom:4px}
.sbk-steps{list-style:none;margin:0;padding:0}
.sbk-step{margin:4px 0}
.sbk-step-icon{display:inline-block;width:18px;font-weight:700;color:#616061}
.sbk-step-complete .sbk-step-icon{color:#007a5a}
.sbk-step-in-progress .sbk-step-icon{color:#1264a3}
.sbk-step-error .sbk-step-icon{color:#e01e5a}
.sbk-step-pending .sbk-step-title,.sbk-step-unknown .sbk-step-title{color:#616061}
.sbk-step-details,.sbk-step-output,.sbk-step-sources{margin-left:18px;font-size:13px;color:#454245}
.sbk-step-sources{display:flex;flex-wrap:wrap;gap:2px 10px}
.sbk-step-source{font-size:12px}
.sbk-context-actions{display:flex;gap:4px}
.sbk-feedback{padding:0 8px}
.sbk-button{display:inline-flex;align-items:center;height:28px;padding:0 12px;
border:1px solid rgba(29,28,29,.3);border-radius:4px;background:#fff;color:#1d1c1d;
font-size:13px;font-weight:700;text-decoration:none;white-space:nowrap}
.sbk-button-primary{background:#007a5a;border-color:#007a5a;color:#fff}
.sbk-button-danger{background:#fff;border-color:#e01e5a;color:#e01e5a}
.sbk-select{font-weight:400}
.sbk-select::after{content:"\\25BE";margin-left:8px;color:#616061}
.sbk-table{border-collapse:collapse;margin:4px 0;font-size:14px;max-width:100%}
.sbk-table td{border:1px solid rgba(29,28,29,.13);padding:6px 10px;vertical-align:top;
white-space:pre-wrap}
.sbk-table-head td{font-weight:700;background:rgba(29,28,29,.04)}
.sbk-table .sbk-rt-section{white-space:pre-wrap}
.sbk-align-center{text-align:center}.sbk-align-right{text-align:right}
.sbk-markdown .sbk-md-p{margin:0 0 8px;white-space:normal}
.sbk-markdown .sbk-md-p:last-child{margin-bottom:0}
.sbk-md-html{white-space:pre-wrap}
/* Slack's markdown block docs: every heading level renders bold, at the same size. */
.sbk-md-h{font-weight:700;margin:8px 0 4px}
.sbk-md-list{margin:0 0 8px;padding-left:28px}
.sbk-md-list .sbk-md-list{margin-bottom:0}
.sbk-md-list ul.sbk-md-list{list-style-type:circle}
.sbk-md-list .sbk-md-list ul.sbk-md-list{list-style-type:square}
.sbk-md-rule{border:0;border-top:1px solid rgba(29,28,29,.13);margin:12px 0}
.sbk-unknown{margin:4px 0;padding:8px 10px;border:1px dashed #c8c8c8;border-radius:6px;
background:#fafafa;color:#616061;font-size:13px}
.sbk-unknown-label{font-family:Monaco,Menlo,Consolas,monospace;font-size:12px;
background:rgba(29,28,29,.08);border-radius:3px;padding:1px 5px;color:#1d1c1d}
.sbk-unknown-inline{font-family:Monaco,Menlo,Consolas,monospace;font-size:12px;
border:1px dashed #c8c8c8;border-radius:3px;padding:0 4px;color:#616061}
.sbk-footer{padding:8px 20px 12px;color:#868686;font-size:11px;border-top:1px solid #f0f0f0}
"""
