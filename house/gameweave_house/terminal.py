"""The House Job in a terminal: the table drawn as text from a view, and typed
actions read back (``+50``, ``deal``, ``hit``, ``cold feet``, ``play long glass``,
``mark 2``, ``next``...)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gameweave_core import action_tag

from . import actions as A
from .cards import labels
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
        found = next((a for a in legal if isinstance(a, kind)), None)
        if found is None:
            raise ValueError(f"{said!r} is not possible now; {_hint(legal)}")
        return found
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
        rest = said[4:].strip()
        plays = [a for a in legal if isinstance(a, A.Ability)]
        for n in range(len(rest.split()), 0, -1):
            key = _card_key(" ".join(rest.split()[:n]))
            if key is not None:
                mine = [a for a in plays if a.card == key]
                if not mine:
                    raise ValueError(f"{ABILITIES[key].name} can't be played now")
                if len(mine) == 1:
                    return mine[0]
                options = "; ".join(describe_action(a) for a in mine[:4])
                raise ValueError(f"say which: {options}{' ...' if len(mine) > 4 else ''}")
        raise ValueError(f"no ability card called {rest!r}; cards: {_card_names()}")
    raise ValueError(f"cannot read {text.strip()!r}; {_hint(legal)}")


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


def render_text(view: Mapping[str, Any], seat: int | None) -> str:
    """The table as rich-markup text: the house, the Take with The Count and The
    Tell, every box, each player card with its abilities lit or greyed with the
    reason, pending effects. History is not part of a view: adapters print it
    beside the table, and :func:`render_history` draws it newest first."""
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
    up = f"  face up: {labels(deck['face_up'])}" if deck["face_up"] else ""
    lines.append(
        f"Deck {deck['left']} cards{up}" + ("  ·  LAST ROUND" if view["last_round"] else "")
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
    lines.append("")
    for b in view["boxes"]:
        tags = []
        if b["marked"]:
            tags.append("MARKED")
        if b["backed"]:
            tags.append(f"backed {b['backed']}")
        if b["vanish"]:
            tags.append("Vanish")
        if b["short_change"]:
            tags.append("Short Change")
        head = f"[bold]{b['name']}[/]" + (f" ({', '.join(tags)})" if tags else "")
        for i, h in enumerate(b["hands"]):
            name = head if i == 0 else "  split"
            cards = labels(h["cards"]) if h["cards"] else "—"
            soft = "soft " if h["soft"] else ""
            total = f"{soft}{h['points']}" if h["cards"] else ""
            lines.append(
                f"{name}  bet {h['bet']}{' doubled' if h['doubled'] else ''}  {cards}  "
                f"{total}  {STATUS[h['status']]}"
            )
    lines.append("")
    for c in view["crew"]:
        me = " (you)" if seat == c["seat"] else ""
        if not c["role"]:
            lines.append(f"Crew {c['seat']}{me}: no role yet")
            continue
        out = " — sitting out" if c["sitting_out"] else ""
        lines.append(
            f"[bold]Crew {c['seat']}{me} · {c['role_name']}[/]{out}  "
            f"passive {c['passive']['name']} (always on)"
        )
        for card in c["cards"]:
            if card["spent"]:
                lines.append(f"    [dim strike]{card['name']}[/] [dim](spent)[/]")
            elif card["playable"]:
                lines.append(f"    [bold yellow]★ {card['name']} — PLAY NOW[/]  {card['text']}")
            else:
                lines.append(f"    [dim]{card['name']} — {card['reason']}[/]")
    if phase == "draft":
        lines.append("Open roles: " + ", ".join(ROLES[r].name for r in view["roles_open"]))
    return "\n".join(lines)


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
