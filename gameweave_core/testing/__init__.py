"""The conformance kit: checks any title can run in a few lines.

In a title's own tests::

    from gameweave_core.testing import TitleConformance

    class TestSealedBid(TitleConformance):
        title = SealedBid()

pytest then runs every ``test_*`` method below against the title: random legal
play always ends and never raises; a saved log replays to the same digests at
every step; views, legal actions and logs round-trip through JSON and TOML; junk,
out-of-turn and illegal actions are refused with a one-line reason and change
nothing; every bot plays whole games from its seat's observation alone; setup,
apply and every bot are deterministic and draw from no generator but the one the
core hands them, however rarely (a failure names the culprit, see
:func:`watching_randomness`); and secrets are kept: the kit builds twin matches
that a seat cannot tell apart (the match going on with other chance or other
secret choices, or around a state the title's resample hook draws) and checks
that the seat's view changes only with what it receives, that everything else it
receives follows its view, and that the resample hook, the bots and the search's
hint depend only on what it knows (see :func:`check_resampled_twins`), plus any
twins the test class declares; and the golden logs of the folder the class names
(``golden``) still play the same.

The functions are usable on their own too, for titles tested another way, and are
all importable from here. They live in one module per job:

- :mod:`~gameweave_core.testing.play`: random play and the plain checks (replay,
  round trips, refusals), the title's bots as the kit runs them;
- :mod:`~gameweave_core.testing.watch`: the randomness watch;
- :mod:`~gameweave_core.testing.twins`: what a seat receives, author-written twins;
- :mod:`~gameweave_core.testing.probes`: the refusals probed in twins;
- :mod:`~gameweave_core.testing.twinrun` and :mod:`~gameweave_core.testing.resampled`:
  one automatic twin played beside the match, and the twins of a whole match;
- :mod:`~gameweave_core.testing.moved`: the twins of the steps where hidden state
  moved (a chance draw or a choice changed), where the kit spends its budget;
- :mod:`~gameweave_core.testing.determinism`: determinism that names the culprit;
- :mod:`~gameweave_core.testing.golden` (and ``python -m
  gameweave_core.testing.record_golden``): golden logs;
- :mod:`~gameweave_core.testing.algorithms`: the action space, observations, explicit
  chance, information states, game facts and worlds;
- :mod:`~gameweave_core.testing.conformance`: :class:`TitleConformance`.

The kit needs pytest and hypothesis only (the ``testing`` extra)."""

from __future__ import annotations

from .algorithms import (
    CLONES,
    SPACE_SAMPLE,
    WORLD_STEPS,
    check_action_space,
    check_explicit_chance,
    check_game_info,
    check_information_states,
    check_observations,
    check_utilities,
    check_worlds,
    not_checked,
)
from .conformance import TitleConformance
from .determinism import (
    check_apply_deterministic,
    check_bots_deterministic,
    check_secrets_checked,
    check_setup_deterministic,
)
from .golden import (
    check_golden,
    check_golden_folder,
    golden_logs,
    golden_path_expected,
    record_again,
    record_new,
    write_golden,
)
from .moved import CHANCE_DRAWS, CHANCE_SHIFTS, CHANCE_STEPS, CHOICE_TRIES, MOVED_DRIVE
from .play import (
    check_bots,
    check_ends,
    check_refused,
    check_replay,
    check_round_trips,
    fingerprint,
    json_values,
    kit_bots,
    observers,
    random_match,
    seeds,
    snapshot_for,
)
from .probes import EDGES, SEEN, SEEN_PER_KIND, from_view
from .resampled import (
    DEEPER,
    EARLY_SHARE,
    RARE,
    check_resampled_twins,
)
from .twinrun import CHOICES
from .twins import (
    CHANCE,
    CHOICE,
    REPLAYED,
    RESAMPLED,
    RESAMPLED_OWN,
    SURFACES,
    Twin,
    TwinStats,
    check_indistinguishable,
    difference,
    refusal,
    surfaces,
)
from .watch import UnseededDraw, only_generator, watching_randomness

# In the order the kit's parts build on one another (the API page keeps it).
__all__ = [  # noqa: RUF022 (source order, kept by the API page)
    "seeds",
    "json_values",
    "random_match",
    "snapshot_for",
    "observers",
    "check_ends",
    "check_replay",
    "check_round_trips",
    "fingerprint",
    "check_refused",
    "UnseededDraw",
    "watching_randomness",
    "only_generator",
    "Twin",
    "SURFACES",
    "refusal",
    "surfaces",
    "difference",
    "check_indistinguishable",
    "RESAMPLED",
    "RESAMPLED_OWN",
    "REPLAYED",
    "CHANCE",
    "CHOICE",
    "TwinStats",
    "SEEN",
    "SEEN_PER_KIND",
    "from_view",
    "EDGES",
    "CHOICES",
    "RARE",
    "CHANCE_DRAWS",
    "CHANCE_SHIFTS",
    "CHANCE_STEPS",
    "CHOICE_TRIES",
    "MOVED_DRIVE",
    "DEEPER",
    "EARLY_SHARE",
    "check_resampled_twins",
    "check_setup_deterministic",
    "check_apply_deterministic",
    "check_bots_deterministic",
    "check_secrets_checked",
    "check_bots",
    "kit_bots",
    "golden_path_expected",
    "check_golden",
    "golden_logs",
    "check_golden_folder",
    "write_golden",
    "record_again",
    "record_new",
    "SPACE_SAMPLE",
    "CLONES",
    "not_checked",
    "check_action_space",
    "check_observations",
    "check_utilities",
    "check_explicit_chance",
    "check_information_states",
    "check_game_info",
    "WORLD_STEPS",
    "check_worlds",
    "TitleConformance",
]
