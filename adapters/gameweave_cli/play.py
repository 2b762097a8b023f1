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
import shlex
import shutil
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
from gameweave_core.log import seats_problem

from .hint import show_hint, thinking_bots
from .render import (
    compact_menu,
    fold,
    history_rows,
    menu,
    outcome_text,
    print_history,
    print_menu,
    render_view,
    seat_name,
)
from .simulate import describe_error, log_text
from .teach import NoRules, RulesFailed, explain_choices, find_topic, rules_page

#: The folder ``play`` writes logs to when ``--log`` is not given.
LOG_DIR = Path("gameweave-logs")

#: Legal actions listed on a turn's screen; ``menu`` lists them all.
MENU_LIMIT = 60

#: How many of each human seat's first turns explain the choices on offer.
TEACHING_TURNS = 2

#: The line a game opens with (one line: on a small terminal the board and the
#: menu take the rest).
HOW_TO_PLAY = ("How to play: type a menu number or the move. More: 'help', 'rules', 'quit'.",)

#: What ``help`` lists: (what is typed, what it does).
COMMANDS = (
    ("help, ?", "this text"),
    ("rules", "the game's rules: an overview and the list of topics"),
    ("rules TOPIC", "one topic of the rules, e.g. rules actions"),
    ("hint", "what the search bot would play in your seat, from your view alone"),
    ("history", "everything your seat has seen happen"),
    ("map, show", "your view and your legal actions again"),
    ("menu", "every legal action, however many"),
    ("save", "write the log now (it is also written after every move)"),
    ("quit", "save the log and leave; the game says how to carry on"),
)


#: The words :func:`command_pointer` suggests: the commands of every prompt.
_WORDS = ("help", "rules", "hint", "history", "map", "show", "menu", "save", "quit")


def command_pointer(text: str) -> str:
    """What to add to the refusal of ``text`` when it looks like a command mistyped
    (``rule``, ``hlep``): a pointer to the command, and to ``help``; else nothing."""
    import difflib

    word = text.strip().split()[0].lower() if text.strip() else ""
    near = difflib.get_close_matches(word, _WORDS, n=1, cutoff=0.6)
    if not near:
        return ""
    return f" (did you mean {near[0]!r}? 'help' lists the commands)"


def help_lines(width: int) -> list[str]:
    """``help``'s text for a terminal ``width`` columns wide."""
    lines = ["Type a menu number or an action to act, or one of:"]
    for word, said in COMMANDS:
        lines.extend(fold(said, width, indent=" " * 16, first=f"  {word:<14}"))
    return lines


@attrs.frozen
class SeatPlan:
    """Who plays each seat: the human seats, and a bot name (``None``: the
    title's default bot) for every other seat."""

    humans: frozenset[int]
    bots: Mapping[int, str | None]


def parse_seats(specs: Sequence[str], players: int, start: SeatPlan | None = None) -> SeatPlan:
    """Read ``--seat N=human|bot[:NAME]`` options over ``start`` (by default seat
    1 is the human and every other seat the title's default bot)."""
    if start is None:
        humans = {1}
        bots: dict[int, str | None] = {s: None for s in range(2, players + 1)}
    else:
        humans = set(start.humans)
        bots = dict(start.bots)
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


def seats_record(plan: SeatPlan, bots: Mapping[int, BotSeat]) -> dict[str, str]:
    """Who sat where, as a log records it (``MatchLog.seats``): ``"human"``, or
    ``"bot:NAME"`` with the bot's name."""
    record = {str(s): "human" for s in plan.humans}
    for s, bot in bots.items():
        record[str(s)] = f"bot:{bot.name}"
    return dict(sorted(record.items(), key=lambda kv: int(kv[0])))


def plan_from_record(record: Mapping[str, str], players: int, source: str) -> SeatPlan:
    """The seating a log recorded (see :func:`seats_record`); ``ValueError`` (one
    line naming ``source``) for a seat or kind the log should not hold."""
    # What a seats table may hold is the log's own rule (a log read from a file
    # has been checked already); checked again for a log made in code.
    problem = seats_problem(record, players)
    if problem is not None:
        raise ValueError(f"{source}: {problem}")
    specs = [f"{key}={kind}" for key, kind in record.items()]
    none = SeatPlan(frozenset(), {s: None for s in range(1, players + 1)})
    try:
        return parse_seats(specs, players, none)
    except ValueError as exc:
        raise ValueError(f"{source}: {exc}") from None


class NoSeatChosen(Exception):
    """The person at the terminal ended the input (Ctrl-D) instead of choosing a seat."""


def seat_role(label: str, seat: int) -> str:
    """The side a seat's label names, without the seat's own number: "Security 2"
    is seat 2's Security, "Seat 1 (The Cat)" seat 1's Cat; "Seat 3" names no side
    (the empty string)."""
    words = label.split()
    if len(words) >= 2 and words[0].lower() == "seat" and words[1] == str(seat):
        return " ".join(words[2:]).removeprefix("(").removesuffix(")").strip()
    if words and words[-1] == str(seat):
        words = words[:-1]
    return " ".join(words)


def seat_choices(match: Match) -> str:
    """The seats on offer, by number and side: ``1 = Thief, 2 = Security``."""
    named = []
    for s in range(1, match.players + 1):
        role = seat_role(match.seat_label(s), s)
        named.append(f"{s} = {role}" if role else f"seat {s}")
    return ", ".join(named)


def ask_seat(match: Match, console: Console, read: Callable[[str], str] = input) -> int:
    """Ask the person at the terminal which seat to play (Enter: seat 1); a wrong
    answer gets one line and the question again; ``help`` says what to type and
    ``rules`` (``rules TOPIC``) shows the rules first. End of input (Ctrl-D) raises
    :class:`NoSeatChosen`: nobody chose, so no game starts; Ctrl-C raises
    ``KeyboardInterrupt`` as ever.

    The seats are printed folded to the terminal's width above a short question:
    typed into the question itself, a long list wrapped mid-word."""
    seats = seat_choices(match)
    for row in fold(f"Seats: {seats}", console.width, indent="  "):
        console.print(Text(row))
    while True:
        try:
            answer = read("Which seat do you want to play? [1]: ").strip()
        except EOFError:
            raise NoSeatChosen from None
        word = answer.lower()
        if not answer:
            return 1
        if answer.isdigit() and 1 <= int(answer) <= match.players:
            return int(answer)
        if word in ("help", "?", "h"):
            for row in fold(
                f"Type the number of the seat you will play ({seats}), or press Enter for "
                "seat 1; the others are played by bots. 'rules' shows the game's rules "
                "first (rules TOPIC: one topic); Ctrl-D leaves.",
                console.width,
            ):
                console.print(Text(row))
            continue
        if word == "rules" or word.startswith("rules "):
            _seat_rules(match, console, answer[len("rules") :].strip())
            continue
        console.print(
            Text(
                f"Not accepted: type a seat number from 1 to {match.players} (or help, or rules)",
                style="red",
            )
        )


def _seat_rules(match: Match, console: Console, topic: str) -> None:
    """``rules`` at the seat question: the page, whole (no game to page within yet)."""
    try:
        page = rules_page(match.title, topic)
    except NoRules as exc:
        console.print(Text(str(exc)))
        return
    except KeyError as exc:
        console.print(Text(f"Not accepted: {exc.args[0]}", style="red"))
        return
    console.file.write("\n".join(page.lines(console)) + "\n")
    console.file.flush()


def news_rows(rows: Sequence[str], room: int) -> list[str]:
    """What happened since a seat's last look, in at most ``room`` rows: the whole
    news under its heading, else its last rows under a heading that counts the
    rest (``history`` shows them)."""
    if not rows or room < 1:
        return []
    if len(rows) + 1 <= room:
        return ["Since your last look:", *rows]
    if room == 1:
        return [f"Since your last look: {len(rows)} lines (type history)"]
    hidden = len(rows) - (room - 1)
    return [f"Since your last look ({hidden} earlier lines: type history):", *rows[hidden:]]


def invocation() -> str:
    """The command that started this ``gameweave``, as it can be typed again here:
    ``gameweave`` when that name on the PATH is this program (an active virtual
    environment), else the path it was started by (``.venv/bin/gameweave``, as
    the README has it), or ``python -m gameweave_cli``; plain ``gameweave`` when
    it runs inside another program (a test)."""
    argv0 = sys.argv[0] if sys.argv else ""
    path = Path(argv0)
    if path.name == "__main__.py" and path.parent.name == "gameweave_cli":
        return f"{shlex.quote(sys.executable)} -m gameweave_cli"
    if path.name != "gameweave":
        return "gameweave"
    on_path = shutil.which("gameweave")
    if on_path is not None and path.exists() and Path(on_path).resolve() == path.resolve():
        return "gameweave"
    return shlex.quote(argv0)


def resume_command(log_path: Path) -> str:
    """The command that carries on the game saved in ``log_path``, as it works
    when typed in this folder (the log holds who sits where)."""
    return f"{invocation()} play --resume {shlex.quote(str(log_path))}"


def default_log_path(title: str, seed: int) -> Path:
    """``gameweave-logs/<title>-<date>-<time>-<seed>.toml`` (the clock is fine here:
    it names a file, it never touches a game)."""
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    return LOG_DIR / f"{title}-{stamp}-{seed}.toml"


class NotReplayable(Exception):
    """The match's log would not replay to the state the match is in (the title
    is not deterministic), so no log is written: a saved log must reproduce the
    game, or it misleads whoever replays it."""


def replayable_log_text(match: Match, seats: Mapping[str, str] | None = None) -> str:
    """The match's log as TOML (with ``seats``, who sits where), or
    :class:`NotReplayable` (one line) when a fresh replay of the match does not
    reach the state it is in."""
    try:
        return attrs.evolve(match.to_log(), seats=dict(seats) if seats else None).to_toml()
    except GameweaveError as exc:
        # to_log replays the match: a title that raises, refuses an action or ends
        # elsewhere on the same seed and actions is not deterministic.
        raise NotReplayable(f"the log was not saved, as it would not replay: {exc}") from exc
    except Exception:
        # The title's snapshot itself failed: the actions alone still reproduce it.
        return log_text(match)


def save_log(match: Match, path: Path, seats: Mapping[str, str] | None = None) -> Path:
    """Write the match's log to ``path`` (creating its folder) and return it;
    :class:`NotReplayable` if the log would not replay."""
    text = replayable_log_text(match, seats)
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
        seats: Mapping[str, str] | None = None,
    ) -> None:
        self.match = match
        self.humans = humans
        self.bots = dict(bots)
        #: Who sits where, written into the log so that --resume seats them again.
        self.seats = dict(seats) if seats is not None else None
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
                return self._saved(0, f"Game saved to {self.log_path}", *self._resume_hint())
            except KeyboardInterrupt:
                return self._saved(
                    130, f"\nInterrupted; game saved to {self.log_path}", *self._resume_hint()
                )
            except Exception as exc:
                return self._crashed(exc)
            return self._saved(0, f"Log saved to {self.log_path}")

    def _resume_hint(self) -> tuple[str, str]:
        """How to carry on: the command on a line of its own, to copy whole (a
        terminal may wrap a long one; it still copies as one line)."""
        return ("Continue with:", f"  {resume_command(self.log_path)}")

    def _save(self) -> None:
        """Write the log (OSError or NotReplayable if it cannot be)."""
        save_log(self.match, self.log_path, self.seats)
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
                # Whole, never folded: a command or a path must copy as one line.
                self.console.print(Text(line), soft_wrap=True)
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

    def _new_lines(self, seat: int) -> list[str]:
        """The history lines ``seat`` has not been shown yet (marked shown now)."""
        lines = self.match.history(seat)
        new = lines[self.seen.get(seat, 0) :]
        self.seen[seat] = len(lines)
        return new

    def _print_new(self, seat: int, heading: str) -> None:
        new = self._new_lines(seat)
        if new:
            self.console.print(Text(heading, style="bold"))
            print_history(self.console, new)

    def _screen(self, seat: int) -> None:
        match = self.match
        console = self.console
        width = console.width
        new = history_rows(self._new_lines(seat), width)
        rule = Rule(
            Text(f"{match.title.display_name}, step {match.step}, {seat_name(match, seat)}")
        )
        drawn = render_view(match, seat, width=width)
        entries = menu(match, seat)
        teach = self._choices_explained(seat, entries)
        if not console.is_terminal:
            if new:
                console.print(Text("Since your last look:", style="bold"))
                for row in new:
                    console.print(Text(row))
            console.print(rule)
            console.print(drawn)
            console.print(Text(f"Your move, {seat_name(match, seat)}. Legal actions:"))
            print_menu(console, entries[:MENU_LIMIT])
            if len(entries) > MENU_LIMIT:
                more = len(entries) - MENU_LIMIT
                console.print(Text(f"... and {more} more: type 'menu' to list them all"))
            for explained in teach:
                console.print(explained)
            console.print(Text("Type a number, an action, or help.", style="dim"))
            return
        # A terminal: what happened, the board, the menu and the prompt fit its
        # height, so that the board's top rows never scroll away (after --resume
        # the whole history is new, and the first turn teaches). The board comes
        # whole; then the menu (two lines at least), the first turns'
        # explanations, the news (a line at least) and the rest of the menu.
        board = 1 + len(Text.from_markup(drawn).wrap(console, width))
        left = max(3, console.size.height - 1 - board)  # the prompt takes the last row
        lines = compact_menu(entries, width)
        news_min = 1 if new else 0
        fits = min(len(teach), max(0, left - news_min - min(len(lines), 2)))
        if fits < len(teach):
            # What does not fit is in the rules, one command away.
            rest = Text("  (what each choice means: rules actions)", style="cyan")
            teach = [*teach[: max(0, fits - 1)], rest][:fits] if fits > 1 else teach[:fits]
        room = max(1, left - len(teach) - news_min)
        if len(lines) > room:
            shown = lines[: max(1, room - 1)]
            more = len(entries) - sum(count for _, count in shown)
            lines = [*shown, (f"... and {more} more: type 'menu' to list them all", 0)]
        elif len(lines) < room and left - len(teach) - len(lines) - 1 >= len(new) + bool(new):
            # Room for a line more, the news whole all the same.
            lines = [(f"Your move, {seat_name(match, seat)}:", 0), *lines]
        for row in news_rows(new, max(news_min, left - len(teach) - len(lines))):
            console.print(Text(row, style="bold") if row.startswith("Since") else Text(row))
        console.print(rule)
        console.print(drawn)
        for line, _ in lines:
            console.print(Text(line))
        for taught_row in teach:
            console.print(taught_row)

    def _choices_explained(self, seat: int, entries: list[tuple[int, Any, str]]) -> list[Text]:
        """At a seat's first turns, what each kind of choice on offer means (from
        the ``actions`` topic of the title's rules text), folded to the terminal."""
        turn = self.turns.get(seat, 0)
        self.turns[seat] = turn + 1
        first = not any(self.turns.get(s, 0) for s in self.humans if s != seat) and not turn
        width = self.console.width
        rows: list[Text] = []
        if first:
            for line in HOW_TO_PLAY:
                rows.extend(Text(row, style="bold") for row in fold(line, width))
        if turn >= TEACHING_TURNS:
            return rows
        for meaning in explain_choices(self.match.title, [label for _, _, label in entries]):
            rows.extend(
                Text(row, style="cyan") for row in fold(meaning, width, indent="    ", first="  ")
            )
        return rows

    def _rules(self, topic: str) -> None:
        """``rules`` and ``rules TOPIC``: the title's rules text, paged on a terminal."""
        try:
            page = rules_page(self.match.title, topic)
        except RulesFailed as exc:
            self._refuse(str(exc))
            return
        except NoRules as exc:
            self.console.print(Text(str(exc)))
            return
        except KeyError as exc:
            self._refuse(str(exc.args[0]))
            return
        lines = page.lines(self.console)
        console = self.console
        if not console.is_terminal:
            console.file.write("\n".join(lines) + "\n")
            return
        size = max(3, console.size.height - 1)  # the last row asks for more
        for start in range(0, len(lines), size):
            console.file.write("\n".join(lines[start : start + size]) + "\n")
            console.file.flush()
            if start + size < len(lines):
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
            if word in ("help", "?"):
                for line in help_lines(self.console.width):
                    self.console.print(Text(line))
            elif word == "rules" or word.startswith("rules "):
                try:
                    self._rules(text[len("rules") :].strip())
                except KeyboardInterrupt:
                    # Ctrl-C closes the pager, as q does: the game goes on.
                    self.console.print(Text("\n(rules closed: back to your turn)"))
            elif word == "hint":
                try:
                    show_hint(self.console, match, seat)
                except KeyboardInterrupt:
                    self.console.print(Text("\nHint cancelled: back to your turn."))
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
            entries = menu(self.match, seat)
            first, last = entries[0][0], entries[-1][0]
            number = int(text)
            if first <= number <= last:
                return legal[number - first]
            self._refuse(f"there is no action {number}: the menu runs from {first} to {last}")
            return None
        try:
            return self.match.title.read_action(text, legal)
        except (ValueError, GameweaveError) as exc:
            self._refuse(str(exc) + command_pointer(text))
            return None
        except Exception as exc:
            # A bug in the title's parser: say so, and let the menu still work.
            title = self.match.title.name
            self._refuse(f"{title} could not read that ({type(exc).__name__}: {exc}); use the menu")
            return None

    def _refuse(self, reason: str) -> None:
        one = " ".join(reason.split("\n"))
        self.console.print(Text(f"Not accepted: {one}", style="red"))


__all__ = [
    "HOW_TO_PLAY",
    "NoSeatChosen",
    "SeatPlan",
    "Session",
    "ask_seat",
    "explain_choices",
    "find_topic",
    "parse_seats",
    "plan_from_record",
    "resume_command",
    "seats_record",
]
