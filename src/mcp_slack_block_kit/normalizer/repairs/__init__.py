"""One module per repair, named after the malformation it repairs."""
