"""The tests' setup: Gameweave's pytest plugin, asked for here and nowhere else.

``gameweave_core.pytest_plugin`` seeds every match and fixes the Hypothesis policy
(docs: "Tests that give one answer"). A library never loads it into a project
that did not ask for it, so each test suite opts in with this line.
"""

pytest_plugins = ["gameweave_core.pytest_plugin"]
