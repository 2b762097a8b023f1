"""The House Job in a terminal: the table drawn as text from a view, and typed
actions read back (``+50``, ``deal``, ``hit``, ``cold feet``, ``play long glass``,
``mark 2``, ``next``...)."""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.text import Text

from gameweave_core import action_tag

from . import actions as A
from .abilities import CARDS
from .cards import label, labels
from .roles import ABILITIES, ROLES

_SIMPLE = {
    "deal": A.DealMeIn,
    "deal me in": A.DealMeIn,
    "hit": A.Hit,
    "stand": A.Stand,
    "double": A.Double,
    "split": A.Split,
    "cold feet": A.ColdFeet,
    "walk": A.ColdFeet,
    "heavy": A.Heavy,
    "no mark": A.NoMark,
    "next": A.NextRound,
    "next round": A.NextRound,
}


def describe_action(act: Any) -> str:
    """A short label for a legal action, which :func:`parse_action` reads back."""
    if isinstance(act, A.Chips):
        return f"+{act.amount}" + (" extra" if act.box is not None else "")
    if isinstance(act, A.Ability):
        words = ["play", ABILITIES[act.card].name.lower()]
        if act.box is not None:
            words += ["box", str(act.box)]
        if act.mine is not None:
            words += ["mine", str(act.mine + 1)]
        if act.index is not None:
            words += ["card", str(act.index + 1)]
        if act.amount is not None:
            words += ["for", str(act.amount)]
        return " ".join(words)
    if isinstance(act, A.Mark):
        return f"mark {act.box}"
    if isinstance(act, A.Draft):
        return f"draft {ROLES[act.role].name.lower()}"
    if isinstance(act, A.DealMeIn):
        return "deal"
    if isinstance(act, A.NextRound):
        return "next"
    return action_tag(act).replace("_", " ")


def _card_key(words: str) -> str | None:
    words = words.replace("_", " ").strip()
    for key, info in ABILITIES.items():
        name = info.name.lower()
        if words in (name, key, name.removeprefix("the ")):
            return key
    return None


def parse_action(text: str, legal: Sequence[Any]) -> Any:
    """The action a person typed; ``ValueError`` with a one-line hint if it can't be read.

    Exact menu labels always work; so do short forms like ``play glass`` when only
    one legal play of that card fits, and ``+50`` / ``mark 2`` / ``draft ghost``.
    """
    said = " ".join(text.strip().lower().split())
    if not said:
        raise ValueError("type an action, e.g. hit, stand, +50, deal, play long glass")
    for act in legal:
        if describe_action(act) == said:
            return act
    if said in _SIMPLE:
        kind = _SIMPLE[said]
        # Not legal now: the action itself goes back, so the rules say why not
        # ("bet at least 10 first", "Next round comes once the round has settled").
        return next((a for a in legal if isinstance(a, kind)), kind())
    if said.startswith("+"):
        amount = said[1:].split()[0]
        if not amount.isdigit():
            raise ValueError(f"{said!r}: push chips as +10, +50 or +100")
        raise ValueError(f"+{amount} is not possible now; {_hint(legal)}")
    if said.startswith("mark"):
        rest = said[4:].strip()
        if not rest.isdigit():
            raise ValueError("name the box to Mark by number, e.g. mark 2")
        raise ValueError(f"box {rest} can't be Marked now; {_hint(legal)}")
    if said.startswith("draft"):
        wanted = said[5:].strip()
        for act in legal:
            if isinstance(act, A.Draft) and ROLES[act.role].name.lower() == wanted:
                return act
        open_roles = ", ".join(ROLES[a.role].name for a in legal if isinstance(a, A.Draft))
        raise ValueError(f"can't draft {wanted!r}; open roles: {open_roles or 'none'}")
    if said.startswith("play"):
        return _parse_play(said[4:].strip(), legal)
    raise ValueError(f"cannot read {text.strip()!r}; {_hint(legal)}")


#: The words naming a play's targets, and the field of the action each fills.
_TARGET_WORDS = {"box": "box", "mine": "mine", "card": "index", "for": "amount"}


def _parse_play(rest: str, legal: Sequence[Any]) -> A.Ability:
    """``play CARD [box N] [mine N] [card N] [for N]``: the legal play these words
    pick out. Targets the card does not take, or a play that is not legal now, come
    back as the action typed, for the rules to refuse with their reason."""
    words = rest.split()
    for n in range(len(words), 0, -1):
        key = _card_key(" ".join(words[:n]))
        if key is not None:
            break
    else:
        raise ValueError(f"no ability card called {rest!r}; cards: {_card_names()}")
    name = ABILITIES[key].name
    given: dict[str, int] = {}
    targets = words[n:]
    if len(targets) % 2:
        raise ValueError(f"{name}: name targets in pairs, e.g. box 2, card 1, mine 2, for 50")
    for word, number in zip(targets[::2], targets[1::2], strict=True):
        field = _TARGET_WORDS.get(word)
        if field is None:
            raise ValueError(f"{name}: {word!r} is not a target; use box, card, mine or for")
        if not number.isdigit() or int(number) == 0:
            raise ValueError(f"{name}: {word} takes a number from 1, e.g. {word} 2")
        # cards are counted from 1 on the table, from 0 in the action
        given[field] = int(number) - (1 if field in ("index", "mine") else 0)
    fits = [
        a
        for a in legal
        if isinstance(a, A.Ability)
        and a.card == key
        and all(getattr(a, f) == v for f, v in given.items())
    ]
    if len(fits) == 1:
        return fits[0]
    if len(fits) > 1:
        options = "; ".join(describe_action(a) for a in fits[:4])
        raise ValueError(f"say which: {options}{' ...' if len(fits) > 4 else ''}")
    return A.Ability(key, **given)


def _card_names() -> str:
    return ", ".join(a.name for a in ABILITIES.values())


def _hint(legal: Sequence[Any]) -> str:
    shown = []
    for act in legal:
        label = describe_action(act)
        if isinstance(act, A.Ability):
            label = "play " + ABILITIES[act.card].name.lower()
        if label not in shown:
            shown.append(label)
    return "try: " + ", ".join(shown[:8]) + (" ..." if len(shown) > 8 else "")


STATUS = {
    "betting": "betting",
    "waiting": "to play",
    "playing": "[bold yellow]PLAYING[/]",
    "stood": "stood",
    "bust": "[red]BUST[/]",
    "blackjack": "[green]BLACKJACK[/]",
    "walked": "walked out",
}


#: What a card with targets does to them, and how it is typed (the table numbers
#: the cards while such a card is yours to play).
TARGET_HELP = {
    "false_cut": ("card C of box B out, a fresh card in", "play false cut box B card C"),
    "palm": ("your card M for card C of box B", "play palm box B mine M card C"),
    "the_load": ("face-up card C to the top of the deck", "play the load card C"),
    "vanish": ("box B's bust comes back", "play vanish box B"),
    "the_drop": ("card C of your hand off", "play the drop card C"),
    "short_change": ("box B's loss pushes", "play short change box B"),
    "back_the_play": ("N chips backed on box B", "play back the play box B for N"),
}


def numbered(cards: Sequence[str]) -> str:
    """``[1]7♣ [2]K♦``: cards with the numbers a play's ``card N`` names."""
    return " ".join(f"[{i}]{label(c)}" for i, c in enumerate(cards, start=1))


def targets_shown(view: Mapping[str, Any], seat: int | None) -> bool:
    """Whether ``seat`` may play a card naming a card now (the table numbers them)."""
    me = next((c for c in view["crew"] if c["seat"] == seat), None)
    return me is not None and any(
        c["playable"] and "index" in CARDS[c["key"]].fields for c in me["cards"]
    )


def settled_lines(settled: Mapping[str, Any], with_cards: bool) -> list[str]:
    """The last settlement: the house's final hand, then one line per result (with
    its cards when the boxes have left the table)."""
    dealer = settled["dealer"]
    out = [
        f"[bold]Round {settled['round']} settled[/]: the house {dealer['points']} "
        f"({labels(dealer['cards'])})  ·  Take {settled['take']}"
    ]
    for r in settled["results"]:
        chips = f"+{r['chips']}" if r["chips"] > 0 else str(r["chips"])
        colour = "green" if r["chips"] > 0 else "red" if r["chips"] < 0 else "default"
        if not r["result"]:  # chips backed on a box
            out.append(f"  {r['name']}  [{colour}]{chips}[/]")
            continue
        cards = f"{labels(r['cards'])}  " if with_cards else ""
        out.append(f"  {r['name']}  {cards}{r['points']}  {r['result']}  [{colour}]{chips}[/]")
    return out


def draft_lines(view: Mapping[str, Any]) -> list[str]:
    """What each open role is for, for the seat choosing one (``rules roles`` has
    every card in full)."""
    out = []
    for key in view["roles_open"]:
        role = ROLES[key]
        cards = ", ".join(ABILITIES[c].name for c in role.cards)
        out.append(f"  [bold]{role.name}[/]: {role.summary} ({role.passive_name}; {cards})")
    out.append("  [dim]rules roles: what every passive and card does[/]")
    return out


#: Lays text out for :func:`fold` (its own width is never used: each wrap names one).
_LAYOUT = Console(file=io.StringIO(), width=200, color_system=None, highlight=False)


def fold(line: str, width: int) -> list[str]:
    """A line of rich markup folded at spaces into lines of at most ``width``
    columns (as shown: markup takes no room), each after the first indented two
    more than the line itself, its colours kept."""
    text = Text.from_markup(line)
    if text.cell_len <= width:
        return [line]
    plain = text.plain
    lead = len(plain) - len(plain.lstrip(" "))
    indent = " " * (lead + 2)
    first = text.wrap(_LAYOUT, width)[0]
    first.rstrip()
    rest = text[len(first.plain) :]
    rest = rest[len(rest.plain) - len(rest.plain.lstrip(" ")) :]
    out = [first.markup]
    for part in rest.wrap(_LAYOUT, max(20, width - len(indent))):
        part.rstrip()
        out.append(indent + part.markup)
    return out


def render_text(view: Mapping[str, Any], seat: int | None, width: int = 80) -> str:
    """The table as rich-markup text: the house, the Take with The Count and The
    Tell, every box, each player card with its abilities lit or greyed with the
    reason, pending effects; a line too long for ``width`` columns is folded
    under itself. History is not part of a view: adapters print it beside the
    table, and :func:`render_history` draws it newest first."""
    lines: list[str] = []
    dealer = view["dealer"]
    if dealer["cards"]:
        cards = labels(dealer["cards"]) + (" [dim]▒▒[/]" if dealer["hole_down"] else "")
        lines.append(f"[bold]THE HOUSE[/]  {cards}  ({dealer['points']})")
    else:
        lines.append("[bold]THE HOUSE[/]  (no cards yet)")
    take = f"[bold]TAKE {view['take']}[/] (opened at {view['opening']})"
    if "count" in view:
        c = view["count"]
        take += f"  ·  The Count {c['tens_and_aces']}/{c['cards']} {c['reading']}"
    if "tell" in view:
        take += f"  ·  The Tell {view['tell']}"
    lines.append(take)
    deck = view["deck"]
    numbers = targets_shown(view, seat)
    shown = numbered(deck["face_up"]) if numbers else labels(deck["face_up"])
    up = f"  face up: {shown}" if deck["face_up"] else ""
    lines.append(
        f"Deck {deck['left']} card{'' if deck['left'] == 1 else 's'}{up}"
        + ("  ·  LAST ROUND" if view["last_round"] else "")
    )
    phase = view["phase"]
    turn = view["turn"]
    who = "you" if seat is not None and turn == seat else f"Crew {turn}"
    banner = {
        "draft": f"Draft — {who} to choose a role",
        "bet": f"Round {view['round']} betting — {who} to bet (caller Crew {view['caller']})",
        "call": f"The Call — {who} to Mark a box or choose No Mark",
        "play": f"Round {view['round']} — {who} to play",
        "settled": f"Round {view['round']} settled — {who} to press Next round",
        "over": "The job is over",
    }[phase]
    lines.append(f"[reverse] {banner} [/]")
    if phase == "over":
        verdict = "the crew took the house" if view["took_the_house"] else "the house kept its edge"
        lines.append(f"Final Take {view['take']} against {view['opening']}: {verdict}")
    for p in view["pending"]:
        lines.append(f"  ⏳ {p['text']}")
    if "settled" in view:
        # Until the next deal; once the new round's boxes are out, with their cards.
        lines += settled_lines(view["settled"], with_cards=phase not in ("settled", "over"))
    lines.append("")
    for b in view["boxes"]:
        tags = []
        if b["marked"]:
            tags.append("MARK")
        if b["backed"]:
            tags.append(f"backed {b['backed']}")
        if b["vanish"]:
            tags.append("Vanish")
        if b["short_change"]:
            tags.append("Short Change")
        name = b["name"] + (f" [box {b['id']}]" if b["extra"] else "")
        head = f"[bold]{name}[/]" + (f" ({', '.join(tags)})" if tags else "")
        for i, h in enumerate(b["hands"]):
            name = head if i == 0 else "  split"
            cards = (numbered(h["cards"]) if numbers else labels(h["cards"])) if h["cards"] else "—"
            soft = "soft " if h["soft"] else ""
            total = f"{soft}{h['points']}" if h["cards"] else ""
            lines.append(
                f"{name}  bet {h['bet']}{' doubled' if h['doubled'] else ''}  {cards}  "
                f"{total}  {STATUS[h['status']]}"
            )
    lines.append("")
    # Your own player card in full; a crewmate's on one line (a spectator sees the
    # seat whose turn it is in full), so four seats still fit a 24-line terminal.
    full = seat if seat is not None else turn
    for c in view["crew"]:
        me = " (you)" if seat == c["seat"] else ""
        if not c["role"]:
            lines.append(f"Crew {c['seat']}{me}: no role yet")
            continue
        out = " — sitting out" if c["sitting_out"] else ""
        head = f"[bold]Crew {c['seat']}{me} · {c['role_name']}[/]{out}"
        if c["seat"] != full:
            cards = ", ".join(
                f"[dim strike]{card['name']}[/]" if card["spent"] else card["name"]
                for card in c["cards"]
            )
            lines.append(f"{head}  {c['passive']['name']} · {cards}")
            continue
        lines.append(f"{head}  passive {c['passive']['name']} (always on)")
        for card in c["cards"]:
            if card["spent"]:
                lines.append(f"    [dim strike]{card['name']}[/] [dim](spent)[/]")
            elif card["playable"] and c["seat"] == seat and card["key"] in TARGET_HELP:
                # what it does to its targets, then how to name them: two short lines
                effect, form = TARGET_HELP[card["key"]]
                lines.append(f"    [bold yellow]★ {card['name']} — PLAY NOW[/]  {effect}")
                lines.append(f"      [cyan]{form}[/]")
            elif card["playable"]:
                lines.append(f"    [bold yellow]★ {card['name']} — PLAY NOW[/]  {card['text']}")
            else:
                lines.append(f"    [dim]{card['name']} — {card['reason']}[/]")
    if phase == "draft":
        lines.append("Open roles: " + ", ".join(ROLES[r].name for r in view["roles_open"]))
        if seat is not None and view["turn"] == seat:
            lines += draft_lines(view)
    return "\n".join(row for line in lines for row in fold(line, width))


def render_history(lines: Sequence[str], limit: int = 14) -> str:
    """A seat's history lines newest first, as the table's running log shows them;
    settlement lines are coloured by what they moved."""
    out = []
    for line in list(lines)[::-1][:limit]:
        if line.endswith(tuple(f" -{d}" for d in "123456789")) or "BUST" in line:
            out.append(f"[red]{line}[/]")
        elif " +" in line and line.split(" +")[-1].isdigit():
            out.append(f"[green]{line}[/]")
        else:
            out.append(line)
    return "\n".join(out)
