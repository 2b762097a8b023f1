"""``gameweave`` in a pseudo-terminal, read as a person sees it: a VT100 screen of
80 x 24 (pyte emulates the terminal: wrapping, clearing, cursor moves), saved to
``test-output/terminal/`` when a test asks, for people to look at."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pexpect
import pyte

ROOT = Path(__file__).resolve().parents[2]
#: Where the captures go (ignored by git, kept by CI as an artefact).
CAPTURES = ROOT / "test-output" / "terminal"


class Terminal:
    """A ``python -m gameweave_cli ARGS`` session in a terminal of ``rows`` x
    ``columns``: what it writes goes through a terminal emulator, so
    :meth:`screen` is what the person sees now, and :meth:`lines` every line it
    has written since the start (the terminal's scrollback as well)."""

    def __init__(
        self,
        args: Sequence[str],
        env: Mapping[str, str],
        *,
        rows: int = 24,
        columns: int = 80,
        cwd: Path | None = None,
        executable: Sequence[str] = (sys.executable, "-m", "gameweave_cli"),
    ) -> None:
        environment = {**os.environ, **env, "TERM": "xterm-256color"}
        for name in ("COLUMNS", "LINES", "NO_COLOR", "FORCE_COLOR"):
            if name not in env:
                environment.pop(name, None)
        self.rows, self.columns = rows, columns
        self.emulator = pyte.HistoryScreen(columns, rows, history=5000)
        self.stream = pyte.Stream(self.emulator)
        self.child = pexpect.spawn(
            executable[0],
            [*executable[1:], *args],
            env=environment,
            encoding="utf-8",
            codec_errors="replace",
            timeout=60,
            dimensions=(rows, columns),
            cwd=str(cwd) if cwd else None,
        )
        #: Everything written so far, colours and all.
        self.raw = ""

    def _feed(self) -> None:
        got = self.child.before + (self.child.after if isinstance(self.child.after, str) else "")
        self.raw += got
        self.stream.feed(got)

    def expect(self, pattern: Any, timeout: float = 60) -> int:
        """Wait for ``pattern`` (a regular expression, or a list of them) in what
        the program writes; the screen is updated with all it wrote up to it."""
        found = int(self.child.expect(pattern, timeout=timeout))
        self._feed()
        return found

    def expect_exact(self, text: str, timeout: float = 60) -> None:
        self.child.expect_exact(text, timeout=timeout)
        self._feed()

    def send(self, line: str) -> None:
        self.child.sendline(line)

    def screen(self) -> list[str]:
        """The terminal's rows as shown now, trailing spaces dropped."""
        return [row.rstrip() for row in self.emulator.display]

    def scrolled_off(self) -> list[str]:
        """The rows that scrolled off the top so far, oldest first."""
        return [
            "".join(char.data for _, char in sorted(row.items())).rstrip()
            for row in self.emulator.history.top
        ]

    def save(self, name: str) -> Path:
        """Save the screen as it is now to ``test-output/terminal/NAME.txt``."""
        CAPTURES.mkdir(parents=True, exist_ok=True)
        path = CAPTURES / f"{name}.txt"
        frame = "+" + "-" * self.columns + "+"
        body = [f"|{row:<{self.columns}}|" for row in self.emulator.display]
        path.write_text("\n".join([frame, *body, frame]) + "\n", encoding="utf-8")
        return path

    def finish(self) -> int:
        """Wait for the program to end; its exit status."""
        self.child.expect(pexpect.EOF, timeout=60)
        self._feed()
        self.child.close()
        return int(self.child.exitstatus if self.child.exitstatus is not None else -1)


#: Escape sequences, for reading raw output as text.
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")


def plain(raw: str) -> str:
    """``raw`` without colours and cursor moves, lines joined by ``\\n``."""
    return ANSI.sub("", raw).replace("\r", "")
