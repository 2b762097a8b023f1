"""The interactive terminal session of ``gameweave play``.

Each human seat sees only what the match builds for it: its view, its history and
its legal actions. When two or more people share the terminal, the screen is
wiped (scrollback included) and a hand-over prompt stands between a seat that
holds secrets and the next person.
"""

from __future__ import annotations

import contextlib
import datetime
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs
from rich.console import Console
from rich.rule import Rule
from rich.text import Text

from gameweave_core import BotSeat, GameweaveError, IllegalAction, Match, run_bots

from .hint import show_hint, thinking_bots
from .render import (
    compact_menu,
    menu,
    outcome_text,
    print_history,
    print_menu,
    render_view,
    seat_name,
)
from .simulate import describe_error, log_text

#: The folder ``play`` writes logs to when ``--log`` is not given.
LOG_DIR = Path("gameweave-logs")

#: Legal actions listed on a turn's screen; ``menu`` lists them all.
MENU_LIMIT = 60

#: How many of each human seat's first turns explain the choices on offer.
TEACHING_TURNS = 2

#: The two lines a game opens with.
HOW_TO_PLAY = (
    "How to play: pick a move by its menu number, or type it as the menu writes it.",
    "'rules' explains the game, 'help' lists the commands, 'quit' saves and stops.",
)

HELP = """\
Type a menu number or an action to act, or one of:
  help          this text
  rules         the game's rules: an overview and the list of topics
  rules TOPIC   one topic of the rules, e.g. rules guards
  hint          what the search bot would play in your seat, from your view alone
  history       everything your seat has seen happen
  map, show     your view and your legal actions again
  menu          every legal action, however many
  save          write the log now (it is also written at the end)
  quit          save the log and leave; resume with --resume LOG"""


@attrs.frozen
class SeatPlan:
    """Who plays each seat: the human seats, and a bot name (``None``: the
    title's default bot) for every other seat."""

    humans: frozenset[int]
    bots: Mapping[int, str | None]


def parse_seats(specs: Sequence[str], players: int) -> SeatPlan:
    """Read ``--seat N=human|bot[:NAME]`` options; by default seat 1 is the human
    and every other seat the title's default bot."""
    humans = {1}
    bots: dict[int, str | None] = {s: None for s in range(2, players + 1)}
    for spec in specs:
        number, sep, who = spec.partition("=")
        if not sep or not number.strip().isdigit():
            raise ValueError(f"--seat {spec!r}: write it as N=human, N=bot or N=bot:NAME")
        seat = int(number)
        if not 1 <= seat <= players:
            raise ValueError(f"--seat {spec!r}: this game has seats 1 to {players}")
        kind, colon, name = who.strip().partition(":")
        if kind == "human" and not colon:
            humans.add(seat)
            bots.pop(seat, None)
        elif kind == "bot":
            humans.discard(seat)
            bots[seat] = name.strip() or None
        else:
            raise ValueError(f"--seat {spec!r}: a seat is 'human', 'bot' or 'bot:NAME'")
    return SeatPlan(frozenset(humans), dict(sorted(bots.items())))


def ask_seat(match: Match, console: Console, read: Callable[[str], str] = input) -> int:
    """Ask the person at the terminal which seat to play (Enter: seat 1); a wrong
    answer gets one line and the question again. End of input chooses seat 1."""
    seats = ", ".join(f"{s} = {match.seat_label(s)}" for s in range(1, match.players + 1))
    while True:
        try:
            answer = read(f"Which seat do you want to play? {seats} [1]: ").strip()
        except EOFError:
            return 1
        if not answer:
            return 1
        if answer.isdigit() and 1 <= int(answer) <= match.players:
            return int(answer)
        console.print(
            Text(f"Not accepted: type a seat number from 1 to {match.players}", style="red")
        )


def default_log_path(title: str, seed: int) -> Path:
    """``gameweave-logs/<title>-<date>-<time>-<seed>.toml`` (the clock is fine here:
    it names a file, it never touches a game)."""
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    return LOG_DIR / f"{title}-{stamp}-{seed}.toml"


class NotReplayable(Exception):
    """The match's log would not replay to the state the match is in (the title
    is not deterministic), so no log is written: a saved log must reproduce the
    game, or it misleads whoever replays it."""


def replayable_log_text(match: Match) -> str:
    """The match's log as TOML, or :class:`NotReplayable` (one line) when a fresh
    replay of the match does not reach the state it is in."""
    try:
        return match.to_log().to_toml()
    except GameweaveError as exc:
        # to_log replays the match: a title that raises, refuses an action or ends
        # elsewhere on the same seed and actions is not deterministic.
        raise NotReplayable(f"the log was not saved, as it would not replay: {exc}") from exc
    except Exception:
        # The title's snapshot itself failed: the actions alone still reproduce it.
        return log_text(match)


def save_log(match: Match, path: Path) -> Path:
    """Write the match's log to ``path`` (creating its folder) and return it;
    :class:`NotReplayable` if the log would not replay."""
    text = replayable_log_text(match)
    path.parent.mkdir(parents=True, exist_ok=True)
    # Write beside it, then rename: a crash mid-write never truncates a saved game.
    partial = path.with_name(f".{path.name}.partial")
    partial.write_text(text, encoding="utf-8")
    os.replace(partial, path)
    return path


@contextlib.contextmanager
def _signals_interrupt() -> Iterator[None]:
    """Treat SIGTERM and SIGHUP (a closed terminal) like Ctrl-C, so the log is
    still written when the session is killed politely."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    wanted = [getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)]

    def interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    previous = {sig: signal.signal(sig, interrupt) for sig in wanted}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


class Quit(Exception):
    """The human asked to leave (``quit``, or end of input)."""


class Session:
    """One game at the terminal: humans type, bots play their seats in between."""

    def __init__(
        self,
        match: Match,
        humans: frozenset[int],
        bots: Mapping[int, BotSeat],
        log_path: Path,
        console: Console,
        read: Callable[[str], str] = input,
    ) -> None:
        self.match = match
        self.humans = humans
        self.bots = dict(bots)
        self.log_path = log_path
        self.console = console
        self.read = read
        # History lines each human seat has already been shown.
        self.seen: dict[int, int] = {}
        # Whose screen is on the terminal now.
        self.shown: int | None = None
        self.autosave_failed = False
        #: The step of the last log this session wrote (None: none yet).
        self.saved_step: int | None = None
        #: How many turns each human seat has been shown (the first ones teach).
        self.turns: dict[int, int] = {}

    # -- running ---------------------------------------------------------------

    def run(self) -> int:
        """Play until the end (or ``quit``); always write the log. Returns the exit code."""
        with _signals_interrupt():
            try:
                if self.humans:
                    self._play()
                else:
                    self._unattended()
            except Quit:
                return self._saved(0, f"Game saved to {self.log_path}", self._resume_hint())
            except KeyboardInterrupt:
                return self._saved(
                    130, f"\nInterrupted; game saved to {self.log_path}", self._resume_hint()
                )
            except Exception as exc:
                return self._crashed(exc)
            return self._saved(0, f"Log saved to {self.log_path}")

    def _resume_hint(self) -> str:
        return f"Continue with: gameweave play --resume {self.log_path}"

    def _save(self) -> None:
        """Write the log (OSError or NotReplayable if it cannot be)."""
        save_log(self.match, self.log_path)
        self.saved_step = self.match.step

    def _unsaved(self, exc: NotReplayable) -> str:
        """Why the log was not written, and what an earlier save still holds."""
        if self.saved_step is None:
            return str(exc)
        return f"{exc}; {self.log_path} holds the game as saved at step {self.saved_step}"

    def _saved(self, code: int, *lines: str) -> int:
        try:
            self._save()
        except OSError as exc:
            print(f"error: cannot write the log {self.log_path}: {exc}", file=sys.stderr)
            return 1
        except NotReplayable as exc:
            print(f"error: {self._unsaved(exc)}", file=sys.stderr)
            return 1
        with contextlib.suppress(OSError):  # a hung-up terminal cannot be written to
            for line in lines:
                self.console.print(Text(line))
        return code

    def _crashed(self, exc: Exception) -> int:
        try:
            self._save()
            saved = f"the log is saved in {self.log_path}"
        except NotReplayable as again:
            print(f"error: {describe_error(exc)} ({self._unsaved(again)})", file=sys.stderr)
            return 1
        except Exception as again:  # the report below must still be printed
            saved = f"the log could not be saved either ({type(again).__name__}: {again})"
        print(f"error: {describe_error(exc)} ({saved})", file=sys.stderr)
        print(
            f"reproduce with: gameweave replay {self.log_path} --verify "
            "(add --traceback or --pdb to see where)",
            file=sys.stderr,
        )
        return 1

    def _autosave(self) -> None:
        """Keep the log current while a person thinks: even a killed terminal
        loses nothing but the move being typed."""
        try:
            self._save()
        except OSError as exc:
            if not self.autosave_failed:
                self._refuse(f"cannot write the log {self.log_path}: {exc}")
            self.autosave_failed = True
        except NotReplayable as exc:
            if not self.autosave_failed:
                self.console.print(Text(f"Warning: {self._unsaved(exc)}", style="red"))
            self.autosave_failed = True

    def _bots_move(self) -> None:
        # With a person at the terminal, each bot's turn shows that it is thinking.
        bots = thinking_bots(self.bots, self.match, self.console) if self.humans else self.bots
        run_bots(self.match, bots, limit=self.match.title.max_actions)

    def _unattended(self) -> None:
        self._bots_move()
        match = self.match
        outcome = match.outcome()
        if outcome is None:
            raise RuntimeError(f"the match stopped at step {match.step} without an outcome")
        self.console.print(Rule(Text(f"{match.title.display_name}: spectator's history")))
        print_history(self.console, match.history(None), empty="  (nothing happened)")
        self.console.print(Text(outcome_text(outcome), style="bold"))

    def _play(self) -> None:
        match = self.match
        while True:
            self._bots_move()
            if match.is_over:
                break
            waiting = [s for s in match.awaiting if s in self.humans]
            if not waiting:
                raise RuntimeError(
                    f"the match stopped at step {match.step}: it awaits nobody but has no outcome"
                )
            self._turn(waiting[0])
        self._finish()

    def _finish(self) -> None:
        match = self.match
        outcome = match.outcome()
        assert outcome is not None
        heading = f"{match.title.display_name}, the end after {match.step} actions"
        if len(self.humans) == 1:
            (seat,) = self.humans
            self.console.print(Rule(Text(f"{heading}, {seat_name(match, seat)}")))
            self.console.print(render_view(match, seat, width=self.console.width))
            self._print_new(seat, "Since your last move:")
        else:
            # The last screen may hold one player's secrets; the ending is public.
            if self.shown is not None and match.has_secrets(self.shown):
                self._clear()
            self.console.print(Rule(Text(f"{heading}, as a spectator sees it")))
            self.console.print(render_view(match, None, width=self.console.width))
            self.console.print(Text("Last moves:", style="bold"))
            print_history(self.console, match.history(None)[-10:])
        self.console.print(Text(outcome_text(outcome), style="bold"))

    # -- one human turn ----------------------------------------------------------

    def _clear(self) -> None:
        # Clear the scrollback too: scrolling up must not show the last screen.
        if self.console.is_terminal:
            self.console.file.write("\033[H\033[2J\033[3J")
            self.console.file.flush()
        else:
            self.console.print("\n" * 3)

    def _hand_over(self, seat: int) -> None:
        """With several people at the terminal, hide the screen between seats."""
        if len(self.humans) < 2 or self.shown == seat:
            return
        previous = self.shown
        if self.match.has_secrets(seat) or (
            previous is not None and self.match.has_secrets(previous)
        ):
            self._clear()
            self._ask(f"Pass to {seat_name(self.match, seat)} and press Enter ")
            self._clear()
        self.shown = seat

    def _ask(self, prompt: str) -> str:
        try:
            return self.read(prompt)
        except EOFError:
            raise Quit from None

    def _print_new(self, seat: int, heading: str) -> None:
        lines = self.match.history(seat)
        new = lines[self.seen.get(seat, 0) :]
        self.seen[seat] = len(lines)
        if new:
            self.console.print(Text(heading, style="bold"))
            print_history(self.console, new)

    def _screen(self, seat: int) -> None:
        match = self.match
        console = self.console
        # What happened comes first, so that the board and the menu are what the
        # last lines of a small terminal hold when the prompt appears.
        self._print_new(seat, "Since your last look:")
        console.print(
            Rule(Text(f"{match.title.display_name}, step {match.step}, {seat_name(match, seat)}"))
        )
        drawn = render_view(match, seat, width=console.width)
        console.print(drawn)
        entries = menu(match, seat)
        teach = self._choices_explained(seat, entries)
        if not console.is_terminal:
            console.print(Text(f"Your move, {seat_name(match, seat)}. Legal actions:"))
            print_menu(console, entries[:MENU_LIMIT])
            if len(entries) > MENU_LIMIT:
                more = len(entries) - MENU_LIMIT
                console.print(Text(f"... and {more} more: type 'menu' to list them all"))
            for taught_line in teach:
                console.print(taught_line, soft_wrap=False)
            console.print(Text("Type a number, an action, or help.", style="dim"))
            return
        # A terminal: the board, the menu and the prompt fit its height.
        used = 1 + len(Text.from_markup(drawn).wrap(console, console.width))
        rows = max(1, console.size.height - used - 1)  # the prompt takes the last line
        lines = compact_menu(entries, console.width)
        # The first turns teach: their lines come before the board's top row
        # (a newcomer needs them more than the column letters for two turns).
        taught = sum(len(t.wrap(console, console.width)) for t in teach)
        room = max(2, rows - taught) if teach else rows
        if len(lines) > room:
            shown = lines[: max(1, room - 1)]
            more = len(entries) - sum(count for _, count in shown)
            lines = [*shown, (f"... and {more} more: type 'menu' to list them all", 0)]
        elif len(lines) < room:
            lines = [(f"Your move, {seat_name(match, seat)}:", 0), *lines]
        for line, _ in lines:
            console.print(Text(line))
        for text in teach:
            console.print(text, soft_wrap=False)

    def _choices_explained(self, seat: int, entries: list[tuple[int, Any, str]]) -> list[Text]:
        """At a seat's first turns, what each kind of choice on offer means (from
        the ``actions`` topic of the title's rules text), in a few lines."""
        turn = self.turns.get(seat, 0)
        self.turns[seat] = turn + 1
        first = not any(self.turns.get(s, 0) for s in self.humans if s != seat) and not turn
        intro = [Text(line, style="bold") for line in HOW_TO_PLAY] if first else []
        if turn >= TEACHING_TURNS:
            return intro
        meanings = explain_choices(self.match.title, [label for _, _, label in entries])
        return intro + [Text(f"  {m}", style="cyan") for m in meanings]

    def _rules(self, topic: str) -> None:
        """``rules`` and ``rules TOPIC``: the title's rules text, paged on a terminal."""
        title = self.match.title
        try:
            topics = dict(title.rules_text() or {})
        except Exception as exc:  # a bug in the title's rules text must not end a game
            self._refuse(f"{title.name} could not give its rules ({type(exc).__name__}: {exc})")
            return
        if not topics:
            self.console.print(
                Text(
                    f"{title.display_name} has no rules text in the terminal; read its rules in "
                    f"its documentation (Gameweave's own titles: docs/titles/{title.name}/)"
                )
            )
            return
        names = list(topics)
        if not topic:
            chosen = names[0]
        else:
            chosen_or_none = find_topic(names, topic)
            if chosen_or_none is None:
                self._refuse(f"no rules topic {topic!r}; the topics are: {', '.join(names)}")
                return
            chosen = chosen_or_none
        others = ", ".join(n for n in names if n != chosen)
        footer = f"Rules topics: {others} (type rules TOPIC, e.g. rules {names[-1]})"
        self._page(f"{title.display_name}: {chosen}", topics[chosen], footer)

    def _page(self, heading: str, text: str, footer: str) -> None:
        """Markdown-ish text, a screenful at a time on a terminal."""
        from rich.markdown import Markdown

        console = self.console
        if not console.is_terminal:
            console.print(Rule(Text(heading)))
            console.print(Markdown(text))
            console.print(Text(footer, style="dim"), soft_wrap=False)
            return
        with console.capture() as captured:
            console.print(Rule(Text(heading)))
            console.print(Markdown(text))
            console.print(Text(footer, style="dim"), soft_wrap=False)
        lines = captured.get().rstrip("\n").split("\n")
        page = max(3, console.size.height - 1)  # the last row asks for more
        for start in range(0, len(lines), page):
            console.file.write("\n".join(lines[start : start + page]) + "\n")
            console.file.flush()
            if start + page < len(lines):
                answer = self._ask("-- more: Enter for the next page, q to stop -- ")
                if answer.strip().lower() in ("q", "quit"):
                    return

    def _turn(self, seat: int) -> None:
        match = self.match
        if not match.legal_actions(seat):
            raise RuntimeError(
                f"{seat_name(match, seat)} is awaited at step {match.step} but has no legal action"
            )
        self._autosave()
        self._hand_over(seat)
        self.shown = seat
        self._screen(seat)
        prompt = f"seat {seat} ({match.seat_label(seat)})> "
        while True:
            text = self._ask(prompt).strip()
            word = text.lower()
            if not text:
                continue
            if word == "help":
                self.console.print(Text(HELP))
            elif word == "rules" or word.startswith("rules "):
                self._rules(text[len("rules") :].strip())
            elif word == "hint":
                show_hint(self.console, match, seat)
            elif word == "history":
                print_history(self.console, match.history(seat), empty="  (nothing yet)")
            elif word in ("map", "show"):
                self._screen(seat)
            elif word == "menu":
                print_menu(self.console, menu(match, seat))
            elif word == "save":
                try:
                    self._save()
                except OSError as exc:
                    self._refuse(f"cannot write {self.log_path}: {exc}")
                except NotReplayable as exc:
                    self._refuse(self._unsaved(exc))
                else:
                    self.console.print(Text(f"Saved to {self.log_path}"))
            elif word in ("quit", "exit"):
                raise Quit
            else:
                action = self._read_action(seat, text)
                if action is None:
                    continue
                try:
                    match.submit(seat, action)
                except IllegalAction as exc:
                    self._refuse(str(exc))
                    continue
                self._print_new(seat, "Result:")
                return

    def _read_action(self, seat: int, text: str) -> Any:
        """The action ``text`` means (a menu number or the title's notation), or
        ``None`` after printing why it cannot be read."""
        legal = self.match.legal_actions(seat)
        if text.isdigit():
            number = int(text)
            if 1 <= number <= len(legal):
                return legal[number - 1]
            self._refuse(f"there is no action {number}: the menu runs from 1 to {len(legal)}")
            return None
        try:
            return self.match.title.read_action(text, legal)
        except (ValueError, GameweaveError) as exc:
            self._refuse(str(exc))
            return None
        except Exception as exc:
            # A bug in the title's parser: say so, and let the menu still work.
            title = self.match.title.name
            self._refuse(f"{title} could not read that ({type(exc).__name__}: {exc}); use the menu")
            return None

    def _refuse(self, reason: str) -> None:
        one = " ".join(reason.split("\n"))
        self.console.print(Text(f"Not accepted: {one}", style="red"))


def find_topic(names: Sequence[str], wanted: str) -> str | None:
    """The topic ``wanted`` names: the same word whatever its case, else the one
    topic it begins (``guard`` for ``guards``), else ``None``."""
    key = wanted.strip().lower()
    exact = [n for n in names if n.lower() == key]
    if exact:
        return exact[0]
    starts = [n for n in names if n.lower().startswith(key) or key.startswith(n.lower())]
    return starts[0] if len(starts) == 1 else None


def explain_choices(title: Any, labels: Sequence[str]) -> list[str]:
    """The lines of the title's ``actions`` rules topic that explain the choices
    in ``labels``: a list item opening with a typed form in backticks explains the
    labels that begin with the same word (and, when its form ends in a word such
    as ``cut``, only those that end with it too)."""
    try:
        topics = title.rules_text() or {}
        guide = topics.get("actions", "")
    except Exception:
        return []
    firsts = {label.split(" ", 1)[0] for label in labels}
    lasts = {(label.split()[0], label.split()[-1]) for label in labels if " " in label}
    out: list[str] = []
    for line in str(guide).splitlines():
        item = line.strip()
        if not item.startswith("- `"):
            continue
        form, _, meaning = item[3:].partition("`")
        words = form.split()
        if not words or words[0] not in firsts:
            continue
        if len(words) >= 3 and words[-1].isalpha() and (words[0], words[-1]) not in lasts:
            continue
        out.append(f"{form}{meaning}")
    return out
