"""The pre-parse Slack URL-form rewrite (`<url|label>` to a Markdown link)."""

from __future__ import annotations

import time

import pytest

from mcp_slack_block_kit.converter.slack_urls import rewrite_slack_url_forms

# (title, input, expected): rewritten forms, then forms left unchanged.
VECTORS = [
    ('plain link form', '<https://x.com|click>', '[click](https://x.com)'),
    ('percent-encoded pipes stay in the URL', '<https://docs.google.com/spreadsheets/d/1m%7CfaCRBkq1nWJQ2leb8Y-fCHEW1QSno4WftP3CuMwHE/edit%20usp=drivesdk%7CRefa%20UGC%20v3%20shared-drive|Refa UGC v3 shared-drive>', '[Refa UGC v3 shared-drive](https://docs.google.com/spreadsheets/d/1m%7CfaCRBkq1nWJQ2leb8Y-fCHEW1QSno4WftP3CuMwHE/edit%20usp=drivesdk%7CRefa%20UGC%20v3%20shared-drive)'),
    ('mailto', '<mailto:foo@bar.com|email me>', '[email me](mailto:foo@bar.com)'),
    ('label with spaces', '<https://x.com|click here please>', '[click here please](https://x.com)'),
    ('two forms on one line', '<https://a.com|a> and <https://b.com|b>', '[a](https://a.com) and [b](https://b.com)'),
    ('form inside prose', 'see <https://x.com|the docs> for more', 'see [the docs](https://x.com) for more'),
    ('not code-aware (known and accepted)', 'use `<https://x.com|y>` form', 'use `[y](https://x.com)` form'),
    ('markdown link unchanged', '[click](https://x.com)', '[click](https://x.com)'),
    ('broadcast unchanged', '<!channel>', '<!channel>'),
    ('broadcast with fallback unchanged', '<!channel|fb>', '<!channel|fb>'),
    ('here unchanged', '<!here>', '<!here>'),
    ('everyone unchanged', '<!everyone>', '<!everyone>'),
    ('user mention unchanged', '<@U012ABCDEF>', '<@U012ABCDEF>'),
    ('user mention with label unchanged', '<@U012ABCDEF|alice>', '<@U012ABCDEF|alice>'),
    ('channel unchanged', '<#C012ABC|general>', '<#C012ABC|general>'),
    ('subteam unchanged', '<!subteam^S012ABC|frontend>', '<!subteam^S012ABC|frontend>'),
    ('date unchanged', '<!date^1672531200^{date}|Jan 1>', '<!date^1672531200^{date}|Jan 1>'),
    ('autolink without label unchanged', '<https://x.com>', '<https://x.com>'),
    ('empty label unchanged', '<https://x.com|>', '<https://x.com|>'),
    ('empty url unchanged', '<|label>', '<|label>'),
    ('space in url unchanged', '<https://x .com|click>', '<https://x .com|click>'),
    ('angle bracket in label unchanged', '<https://x.com|outer <inner> end>', '<https://x.com|outer <inner> end>'),
    ('broadcast as label unchanged', '<https://x.com|<!channel>>', '<https://x.com|<!channel>>'),
    ('one-letter scheme is not a scheme', '<a:b|c>', '<a:b|c>'),
    ('fenced code keeps the form', '```\n<https://x.com|y>\n```\n<https://x.com|y>',
     '```\n<https://x.com|y>\n```\n[y](https://x.com)'),
    ('tilde fence keeps the form', 'a <https://a.com|a>\n~~~sh\ncurl <https://x|y>\n~~~\n',
     'a [a](https://a.com)\n~~~sh\ncurl <https://x|y>\n~~~\n'),
    ('an unclosed fence runs to the end', '```\n<https://x|y>', '```\n<https://x|y>'),
    ('a quoted fence keeps the form', '> ```\n> <https://x|y>\n> ```\n',
     '> ```\n> <https://x|y>\n> ```\n'),
]


@pytest.mark.parametrize(("title", "text", "expected"), VECTORS, ids=[v[0] for v in VECTORS])
def test_rewrite_vectors(title: str, text: str, expected: str) -> None:
    """Each spec vector rewrites (or stays unchanged) exactly as listed."""
    assert rewrite_slack_url_forms(text) == expected


@pytest.mark.parametrize(("title", "text", "expected"), VECTORS, ids=[v[0] for v in VECTORS])
def test_rewrite_is_idempotent(title: str, text: str, expected: str) -> None:
    """Rewriting twice gives the same text as rewriting once."""
    once = rewrite_slack_url_forms(text)
    assert rewrite_slack_url_forms(once) == once


@pytest.mark.parametrize("text", [
    "<" * 20000,
    "<https:" * 5000 + "|",
    "<ab:" + "x" * 40000 + "|" + "y" * 40000,
    "<ab:c|" * 10000,
])
def test_rewrite_is_linear_on_pathological_input(text: str) -> None:
    """Adversarial bracket soup finishes quickly (no catastrophic backtracking)."""
    start = time.perf_counter()
    rewrite_slack_url_forms(text)
    assert time.perf_counter() - start < 30.0  # a watchdog: a quadratic step takes minutes
