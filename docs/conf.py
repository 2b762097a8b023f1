"""Sphinx configuration for the Gameweave documentation."""

project = "Gameweave"
author = "The Gameweave developers"
extensions = ["myst_parser", "sphinx.ext.autodoc", "sphinx.ext.napoleon"]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "tutorial/sealed-bid/**"]
html_theme = "furo"
autodoc_member_order = "bysource"
