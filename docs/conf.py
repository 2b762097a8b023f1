"""Sphinx configuration for the Gameweave documentation."""

import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
# The extension that generates pages from the code, and the tutorial title it plays
# (a separate distribution, imported from its folder so the docs need not install it).
sys.path.insert(0, str(DOCS / "_ext"))
sys.path.insert(0, str(DOCS / "tutorial" / "sealed-bid"))

project = "Gameweave"
author = "The Gameweave developers"
copyright = "2026, the Gameweave developers"
extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "gameweave_docs",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
# _generated holds pieces included into pages, not pages of their own.
exclude_patterns = ["_build", "_generated", "tutorial/sealed-bid/**"]
html_theme = "furo"
html_title = "Gameweave"
autodoc_member_order = "bysource"
autodoc_typehints = "description"
# Curly quotes, but "--seed" must stay two hyphens, not become a dash.
smartquotes_action = "qe"
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

# Generated at build time by gameweave_docs (never copied by hand).
gameweave_cli_app = "gameweave_cli.app:app"
gameweave_openapi = "gameweave_http.routes:schema"
gameweave_public_api = "gameweave_core"
# The titles table lists the project's own title distributions (each title is a
# distribution of its own; the core, "gameweave", registers none).
gameweave_titles_from = [
    "gameweave-museum",
    "gameweave-house",
    "gameweave-museum-heist",
    "gameweave-master-thief",
    "gameweave-museum-rush",
]
