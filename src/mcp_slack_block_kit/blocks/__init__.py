"""Block Kit toolkit: limits, validation, lint, splitting and preview links.

Works on plain dicts and never imports the converter.
"""
