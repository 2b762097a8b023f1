"""What the table tells a newcomer: the last settled round stays until the next deal,
the roles say what they do where they are drafted, the cards a play names are
numbered, and the rules text covers every choice."""

from __future__ import annotations

import copy
import io
import re
from pathlib import Path

from helpers import TITLE, bet_all, dealt, order, table
from rich.console import Console

import gameweave_house
from gameweave_core import Match, Rng
from gameweave_core.log import digest
from gameweave_house import actions as A
from gameweave_house.bots import BasicBot
from gameweave_house.cards import count_reading
from gameweave_house.roles import ABILITIES, ROLES
from gameweave_house.rules_text import SYMBOLS, TOPICS
from gameweave_house.terminal import render_text


def plain(text: str) -> str:
    return re.sub(r"\[/?[a-z ]*\]", "", text)


def settled_round() -> Match:
    """Two seats, the house 10♦ 7♦: Crew 1 stands on 16 (loses 100), Crew 2 on 19 (wins)."""
    m = dealt(("sleight", "lookout"), [("TS", "6S"), ("TH", "9H")], "TD", "7D")
    m.submit(1, A.Stand())
    m.submit(2, A.Stand())
    return m


def test_a_settled_round_shows_the_house_s_final_hand_and_every_result() -> None:
    m = settled_round()
    view = m.view(1)
    assert view["phase"] == "settled"
    settled = view["settled"]
    assert settled["round"] == 1 and settled["take"] == view["take"] == 1000
    assert settled["dealer"] == {"cards": ["TD", "7D"], "points": 17}
    assert [(r["name"], r["points"], r["result"], r["chips"]) for r in settled["results"]] == [
        ("Crew 1", 16, "LOSS", -100),
        ("Crew 2", 19, "WIN", 100),
    ]
    # the results are the settlement lines of the history, figure for figure
    assert "Crew 1 16 LOSS -100" in m.history(1) and "Crew 2 19 WIN +100" in m.history(1)


def test_the_settled_round_stays_while_the_next_round_bets_and_goes_with_the_deal() -> None:
    m = settled_round()
    # Crew 2 presses Next round at once (a bot does) and bets: Crew 1 still sees it all.
    bot = BasicBot()
    while m.awaiting == (2,):
        m.submit(2, bot.act(m.observe(2), Rng(0)))
    assert m.view(1)["phase"] == "bet" and m.awaiting == (1,)
    kept = m.view(1)["settled"]
    assert kept["round"] == 1 and kept["dealer"]["cards"] == ["TD", "7D"]
    assert kept["results"][0]["cards"] == ["TS", "6S"]
    assert m.view(None)["settled"] == kept  # spectators too
    text = plain(render_text(m.view(1), 1))
    assert "Round 1 settled: the house 17 (10♦ 7♦)" in text
    assert "Crew 1  10♠ 6♠  16  LOSS  -100" in text and "Crew 2  10♥ 9♥  19  WIN  +100" in text
    bet_all(m, {1: 10})
    assert m.view(1)["phase"] == "play" and "settled" not in m.view(1)


def test_the_kept_round_is_left_out_of_the_digest() -> None:
    m = settled_round()
    state = m.state  # white-box: the same state without the kept round
    assert state.last is not None
    snapshot = TITLE.snapshot(state)
    assert "last" not in snapshot and snapshot["phase"] == "settled"
    bare = copy.deepcopy(state)
    bare.last = None
    assert TITLE.snapshot(bare) == snapshot
    assert digest(snapshot) == m.digest()


def test_the_lookout_s_passive_reads_as_a_sentence_with_the_count_s_figures() -> None:
    text = ROLES["lookout"].passive_text
    assert text[0].isupper() and text.endswith(".") and "over cards left" not in text
    assert "43%" in text and "35%" in text and "SPENT" in text
    # the figures are the ones The Count reads by: 43 of 100 is RICH, 34 THIN
    assert count_reading(["TS"] * 43 + ["2S"] * 57)[2] == "RICH"
    assert count_reading(["TS"] * 34 + ["2S"] * 66)[2] == "THIN"


def test_the_draft_says_what_each_open_role_does() -> None:
    m = Match(TITLE, 3, 1)
    m.submit(1, A.Draft("ghost"))
    view = m.view(2)
    assert [r["key"] for r in view["roles"]] == view["roles_open"]
    lookout = next(r for r in view["roles"] if r["key"] == "lookout")
    assert lookout["passive"]["text"] == ROLES["lookout"].passive_text
    assert [c["name"] for c in lookout["cards"]] == ["Long Glass", "Rooftop", "The Call"]
    # (A line longer than the terminal's 80 columns is folded under itself.)
    text = " ".join(plain(render_text(view, 2)).split())
    for key in view["roles_open"]:
        assert f"{ROLES[key].name}: {ROLES[key].summary}" in text
    assert "Ghost: " not in text  # taken
    assert "roles" not in m.view(2) or m.view(2)["phase"] == "draft"


def test_cards_are_numbered_while_a_play_names_them() -> None:
    m = dealt(("sleight", "lookout"), [("TS", "6S"), ("TH", "9H")], "TD", "7D")
    text = plain(render_text(m.view(1), 1))
    assert "Crew 1  bet 100  [1]10♠ [2]6♠" in text and "Crew 2  bet 100  [1]10♥ [2]9♥" in text
    assert "★ Palm — PLAY NOW  your card M for card C of box B" in text
    assert "      play palm box B mine M card C" in text
    # the card numbers are the ones the play's words use
    assert TITLE.parse_action("play palm box 2 mine 2 card 1", m.legal_actions(1)) == A.Ability(
        "palm", box=2, mine=1, index=0
    )
    # the Lookout, waiting, gets no numbers
    assert "[1]" not in plain(render_text(m.view(2), 2))


def test_the_rules_text_names_its_topics_and_every_role_s_cards() -> None:
    assert TITLE.rules_text() is TOPICS
    assert next(iter(TOPICS)) == "overview"
    named = set(re.findall(r"`rules (\w+)`", TOPICS["overview"]))
    assert named == set(TOPICS) - {"overview"}
    for role in ROLES.values():
        assert f"**The {role.name}**" in TOPICS["roles"] and role.passive_text in TOPICS["roles"]
        for card in role.cards:
            assert ABILITIES[card].text in TOPICS["roles"]


def test_the_actions_topic_explains_every_label_a_job_offers() -> None:
    explained = set(re.findall(r"^- `([^`]+)`", TOPICS["actions"], flags=re.MULTILINE))
    firsts = {form.split()[0] for form in explained}
    seen = set()
    for seed in range(4):
        m = Match(TITLE, 4, seed)
        bot = BasicBot()
        while m.awaiting:
            seat = m.awaiting[0]
            for act in m.legal_actions(seat):
                seen.add(TITLE.describe_action(act).split()[0])
            m.submit(seat, bot.act(m.observe(seat), Rng(seed)))
    assert {"+10", "deal", "hit", "stand", "play", "next", "draft", "mark"} <= seen
    assert seen <= firsts, seen - firsts


def test_the_browser_legend_is_the_rules_text_s_list_word_for_word() -> None:
    source = (Path(gameweave_house.__file__).parent / "web" / "house.js").read_text()
    block = source[
        source.index("const LEGEND = [") : source.index("];", source.index("const LEGEND"))
    ]
    pairs = tuple(re.findall(r'\["([^"]+)", "([^"]+)"\]', block))
    assert pairs == SYMBOLS
    assert all(f"`{mark}`: {meaning}." in TOPICS["table"] for mark, meaning in SYMBOLS)


def test_the_terminal_draws_every_mark_the_legend_explains() -> None:
    # Four seats: the Lookout calls and Marks box 1, the Ghost's Vanish covers box 2,
    # Crew 1 holds a soft hand, and the Bagman backs box 3 on its playing turn.
    hands = [("AS", "6S"), ("TH", "9H"), ("TC", "8C"), ("9D", "8D")]
    m = table(("lookout", "ghost", "bagman", "inside_man"), order(hands, "6D", "TD"))
    m.submit(1, A.Mark(1))
    m.submit(1, A.Chips(10))
    m.submit(1, A.DealMeIn())
    m.submit(2, A.Ability("vanish", box=2))
    bet_all(m, {2: 10, 3: 10, 4: 10})
    m.submit(1, A.Stand())
    m.submit(2, A.Stand())
    m.submit(3, A.Ability("back_the_play", box=3, amount=10))
    text = plain(render_text(m.view(3), 3))
    drawn = {
        "▒▒": "6♦ ▒▒",
        "soft": "A♠ 6♠  soft 17",
        "MARK": "Crew 1 (MARK)",
        "Vanish, Short Change": "Crew 2 (Vanish)",
        "backed": "Crew 3 (backed 10)",
        "PLAY NOW": "★ Short Change — PLAY NOW",
        "⏳ Pending": "⏳ Vanish on Crew 2's box",
        "The Count": "The Count 17/43 EVEN",
        "The Tell": "The Tell HIGH",
        "Crew 2": "Crew 2 (Vanish)  bet 10",
    }
    # every mark of the legend but the numbers (tested above) is drawn here
    assert set(drawn) == {mark for mark, _ in SYMBOLS} - {"[1] [2]"}
    for mark, seen in drawn.items():
        assert seen in text, (mark, text)


def test_a_four_seat_table_fits_a_24_line_terminal_with_room_for_the_menu() -> None:
    m = dealt(
        ("sleight", "inside_man", "ghost", "lookout"),
        [("TC", "6S"), ("TS", "2S"), ("KH", "6D"), ("7S", "9H")],
        "2D",
        "TD",
    )
    console = Console(width=80, record=True, file=io.StringIO())
    console.print(render_text(m.view(1), 1))
    drawn = console.export_text().rstrip("\n").split("\n")
    # the CLI adds a heading rule above, and the menu and the prompt below
    assert len(drawn) <= 20, "\n".join(drawn)
    # crewmates' cards are one line each; your own in full
    assert "Crew 2 · Inside Man  The Tell · Slow Hand, The Nod, Extra Box" in drawn
    assert any("★ False Cut — PLAY NOW" in line for line in drawn)
