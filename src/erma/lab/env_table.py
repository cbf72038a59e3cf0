"""One hand under an environment (环境的一局): deal from a seeded generator, the current decision's mask and
action table, the step, the rewards. Shared by the AEC, single-agent and batch environments of
:mod:`erma.lab.env`; compiled with the core (setup.py), so it lives outside that package, whose imports
(gymnasium, pettingzoo) a light install lacks."""

from __future__ import annotations

import enum
import json
import random
from typing import Final

import numpy as np
import numpy.typing as npt

from erma.analysis import shapes
from erma.bots import Bot
from erma.bots.nn.features import (
    NUM_ACTIONS,
    NUM_ORACLE,
    NUM_PLANES,
    NUM_SCALARS,
    action_bytes,
    encode,
    encode_bytes,
    encode_oracle,
    net_input,
    resolve,
)
from erma.game import (
    Action,
    GameState,
    Phase,
    SeatView,
    apply_unchecked,
    legal_actions,
    new_hand,
    seat_view,
    timeout_action,
)
from erma.rules import RuleSet, find_ruleset

_INT8: Final = np.dtype(np.int8)


class Reward(enum.Enum):
    """What a seat is paid."""

    POINTS = "points"
    """Zero-sum, at the end of the hand only: the hand's points (``HandResult.deltas``)."""
    SHAPED = "shaped"
    """The points plus, at each of the seat's decisions, ``shaping`` × the fall of its shanten (向听) since
    its previous decision (a potential −shaping × shanten, discount 1; not zero-sum)."""


class Illegal(enum.Enum):
    """What an action the mask does not allow does."""

    DEFAULT = "default"
    """Play the engine's timeout default instead (RULES §5.3) and say so in ``info["illegal"]``."""
    RAISE = "raise"
    """Raise ValueError naming the action and the phase."""


def rules_of(rules: str | RuleSet, overrides: dict[str, object] | None = None) -> RuleSet:
    """A preset by name (with overrides) or a rule set as given."""
    if isinstance(rules, RuleSet):
        return rules
    return find_ruleset(rules, overrides)


def hand_seed(rng: random.Random) -> str:
    """A hand seed drawn from the environment's generator."""
    return f"{rng.getrandbits(64):016x}"


def shanten(view: SeatView) -> int:
    """The seat's shanten as its family reads it (with wild tiles as jokers)."""
    if view.wild is None:
        return shapes.overall(view.key, view.size, 0, view.shapes)
    return shapes.regular(view.key, view.size, view.jokers)


class Table:
    """One hand and its current decision, as the environments step it."""

    __slots__ = ("_mask", "_table", "_view", "illegal", "last_shanten", "reward", "rules", "shaping", "state")

    def __init__(
        self, rules: RuleSet, *, reward: Reward = Reward.POINTS, shaping: float = 0.1, illegal: Illegal
    ) -> None:
        self.rules = rules
        self.reward = reward
        self.shaping = shaping
        self.illegal = illegal
        self.state: GameState = new_hand(rules, "0")
        self._view: SeatView | None = None
        self._mask: bytearray | None = None
        self._table: dict[int, Action] = {}
        self.last_shanten: list[int | None] = [None, None]

    def deal(self, rng: random.Random) -> None:
        """A new hand from ``rng`` (its seed and, when the rule set rolls one, its dealer)."""
        self.state = new_hand(self.rules, hand_seed(rng))
        self.last_shanten = [None, None]
        self.refresh()

    @property
    def over(self) -> bool:
        """The hand has ended."""
        return self.state.phase is Phase.END

    @property
    def actor(self) -> int:
        """The seat to decide."""
        return self.state.actor

    def refresh(self) -> None:
        """Forget the decision's view, mask and action table (built again when asked for)."""
        self._view = None
        self._mask = None

    @property
    def view(self) -> SeatView | None:
        """The actor's view (None once the hand is over)."""
        if self._view is None:
            st = self.state
            if st.phase is Phase.END:
                return None
            self._view = seat_view(st, st.actor)
        return self._view

    def _decision(self) -> tuple[bytearray, dict[int, Action]]:
        if self._mask is None:
            view = self.view
            if view is None:
                self._mask, self._table = bytearray(NUM_ACTIONS), {}
            else:
                self._mask, self._table = action_bytes(view, view.legal)
        return self._mask, self._table

    @property
    def mask(self) -> npt.NDArray[np.int8]:
        """The actor's mask over the fixed action space (a new array on a copy of the decision's bytes)."""
        return np.frombuffer(bytearray(self._decision()[0]), _INT8)

    def play(self, action: Action) -> None:
        """Apply an engine action for the actor (a bot's)."""
        apply_unchecked(self.state, self.state.actor, action)
        self.refresh()

    def legal(self) -> list[Action]:
        """The actor's legal engine actions."""
        return legal_actions(self.state, self.state.actor)

    def play_bot(self, bot: Bot) -> None:
        """Let ``bot`` decide for the actor and apply its choice (a bot that reads the view gets the legal
        actions the view lists: found once a decision)."""
        view = self.view if bot.uses_view else None
        legal = list(view.legal) if view is not None else self.legal()
        self.play(bot.choose(view, legal))  # type: ignore[arg-type]

    def step(self, index: int, rng: random.Random) -> tuple[list[float], bool]:
        """Apply action ``index`` for the actor: (rewards of both seats, whether it was illegal)."""
        st = self.state
        seat = st.actor
        view = self.view
        action = self._decision()[1].get(int(index))
        illegal = action is None
        if action is None:
            if self.illegal is Illegal.RAISE:
                raise ValueError(
                    f"action {index} is not legal for seat {seat} in phase {st.phase.value} "
                    f"(legal: {sorted(self._decision()[1])})"
                )
            action = timeout_action(st, seat)
        else:
            action = resolve(action, len(st.reserve), rng)
        rewards = [0.0, 0.0]
        if self.reward is Reward.SHAPED and view is not None:
            now = shanten(view)
            before = self.last_shanten[seat]
            if before is not None:
                rewards[seat] += self.shaping * (before - now)
            self.last_shanten[seat] = now
        apply_unchecked(st, seat, action)
        self.refresh()
        if st.phase is Phase.END:
            assert st.result is not None
            rewards[0] += st.result.deltas[0]
            rewards[1] += st.result.deltas[1]
        return rewards, illegal

    def observe(
        self,
        seat: int,
        planes: np.ndarray,
        scalars: np.ndarray,
        mask: np.ndarray,
        oracle: np.ndarray | None = None,
    ) -> None:
        """Write ``seat``'s observation into the given arrays (its mask is all zeros unless it is to act)."""
        st = self.state
        encode(self.view_of(seat), planes, scalars)
        if st.phase is not Phase.END and st.actor == seat:
            mask[:] = np.frombuffer(self._decision()[0], _INT8)  # (read in place: the array is the copy)
        else:
            mask.fill(0)
        if oracle is not None:
            encode_oracle(st, seat, oracle)

    def view_of(self, seat: int) -> SeatView:
        """``seat``'s view now (the decision's own view when ``seat`` is to act)."""
        st = self.state
        view = self._view if self._view is not None and self._view.seat == seat else None
        if view is None:
            view = self.view if st.phase is not Phase.END and st.actor == seat else seat_view(st, seat)
        assert view is not None
        return view


def empty_observation(oracle: bool) -> dict[str, np.ndarray]:
    """Zeroed arrays of one observation."""
    out: dict[str, np.ndarray] = {
        "observation": np.zeros((NUM_PLANES, 34), dtype=np.uint8),
        "scalars": np.zeros(NUM_SCALARS, dtype=np.uint8),
        "action_mask": np.zeros(NUM_ACTIONS, dtype=np.int8),
    }
    if oracle:
        out["oracle"] = np.zeros((NUM_ORACLE, 34), dtype=np.uint8)
    return out


def open_table(
    rules: str | RuleSet,
    overrides: dict[str, object] | None,
    *,
    reward: str,
    shaping: float,
    illegal: str,
    render_mode: str | None,
) -> tuple[RuleSet, Table]:
    """The options every environment takes, checked, and the table they make: (rule set, table)."""
    if render_mode not in (None, "ansi"):
        raise ValueError(f"render_mode {render_mode!r}: erma renders 'ansi' only")
    ruleset = rules_of(rules, overrides)
    return ruleset, Table(ruleset, reward=Reward(reward), shaping=shaping, illegal=Illegal(illegal))


_PLANES_SHAPE: Final = (NUM_PLANES, 34)
_UINT8: Final = np.dtype(np.uint8)


def observation(table: Table, seat: int, oracle: bool) -> dict[str, np.ndarray]:
    """One observation of ``seat`` (with the oracle planes if ``oracle``): new arrays, the planes and
    scalars made on the encoder's own buffers (no copy)."""
    st = table.state
    planes, scalars = encode_bytes(table.view_of(seat))
    acting = st.phase is not Phase.END and st.actor == seat
    obs: dict[str, np.ndarray] = {
        "observation": np.ndarray(_PLANES_SHAPE, _UINT8, planes),  # (one call: no reshape)
        "scalars": np.frombuffer(scalars, _UINT8),
        "action_mask": table.mask if acting else np.zeros(NUM_ACTIONS, dtype=np.int8),
    }
    if oracle:
        obs["oracle"] = np.zeros((NUM_ORACLE, 34), dtype=np.uint8)
        encode_oracle(st, seat, obs["oracle"])
    return obs


def flatten(obs: dict[str, np.ndarray], rules: RuleSet, out: np.ndarray | None = None) -> np.ndarray:
    """The ``flat`` layout of one ``dict`` observation (erma.lab.env.spaces.Layout.FLAT), into ``out`` if
    given: the nn bot's scaled features, then the oracle planes / 4 if present; never the mask."""
    x = net_input(obs["observation"], obs["scalars"], rules.name)
    if "oracle" in obs:
        x = np.concatenate([x, obs["oracle"].reshape(-1).astype(np.float32) * 0.25])
    if out is None:
        return x
    out[:] = x
    return out


def render_view(state: GameState, seat: int) -> str:
    """The ``ansi`` rendering: the seat's view as one JSON line."""
    return json.dumps(seat_view(state, seat).to_json(), ensure_ascii=False)
