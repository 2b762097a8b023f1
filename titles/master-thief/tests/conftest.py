"""The tests' setup: Gameweave's pytest plugins, asked for here and nowhere else.

``gameweave_core.pytest_plugin`` seeds every match and fixes the Hypothesis policy;
``gameweave_http.testing`` brings the server and browser fixtures (docs: "Tests
that give one answer"). A library never loads them into a project that did not ask
for them, so each test suite opts in with this line.
"""

pytest_plugins = ["gameweave_core.pytest_plugin", "gameweave_http.testing"]
