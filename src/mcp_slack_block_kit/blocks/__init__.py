"""Block Kit toolkit: limits, shape check, validation, lint, splitting and preview links.

Works on plain dicts and never imports the converter. Import the engines from their
modules (``blocks.validate``, ``blocks.lint``, ``blocks.split``, ``blocks.preview``) or
from the package root.
"""
