"""The learning view (学习视角): a seat view as uint8 planes over the 34 kinds, and the fixed action space.

One encoding serves the environments (:mod:`erma.lab.env`), the data export (``erma sim --export``) and the
``nn`` bot, so a network trained on one runs on the others. Everything here reads the
:class:`~erma.game.seatview.SeatView` only — never the game state — except :func:`encode_oracle`, which is
the oracle observation (the opponent's hand and the wall) for oracle-guided training. docs/env.md lists the
planes, scalars and actions one by one.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

from erma.bots.nn.derived import NUM_DERIVED, derived
from erma.bots.nn.derived import SCALE as DERIVED_SCALE
from erma.bots.nn.layout import NUM_PLANES, NUM_SCALARS, PHASES, PLANES, SCALARS
from erma.game.actions import Action, Kind
from erma.game.seatview import SeatView
from erma.game.state import GameState, Phase
from erma.hand import MeldKind
from erma.tiles import parse_tile

# ----------------------------------------------------------------------------------------- actions

DISCARD = 0
"""0–33: 打牌 kind k."""
RIICHI = 34
"""34–67: 打牌 kind k and declare ready (报听)."""
CHOW = 68
"""68–88: 吃 the chow starting at suit s, rank r (index 68 + 7s + r; the chow's lowest tile is 9s + r)."""
PUNG = 89
KONG = 90
"""明杠 the discard."""
CKONG = 91
"""91–124: 暗杠 kind k."""
AKONG = 125
"""125–158: 加杠 kind k."""
XKONG = 159
"""159–192: 无双: extend the kong of kind k."""
WIN_ = 193
PASS_ = 194
SELECT = 195
"""195–228: start exchange, mark one tile of kind k."""
EXCHANGE = 229
ACCEPT = 230
"""Accept the triplet offer, giving back the three tiles chosen by :func:`accept_choice`."""
CUO = 231
"""231–264: 搓牌 kind k."""
PICK = 265
"""海底捞月: pick a reserve position; the environment (or bot) draws the position from its own seeded
generator (the pick is blind)."""
MAIDI = 266
DINGDI = 267
NUM_ACTIONS = 268

ACTION_NAMES: tuple[str, ...] = (
    *(f"discard {k}" for k in range(34)),
    *(f"riichi {k}" for k in range(34)),
    *(f"chow {9 * (i // 7) + i % 7}" for i in range(21)),
    "pung",
    "kong",
    *(f"ckong {k}" for k in range(34)),
    *(f"akong {k}" for k in range(34)),
    *(f"xkong {k}" for k in range(34)),
    "win",
    "pass",
    *(f"select {k}" for k in range(34)),
    "exchange",
    "accept",
    *(f"cuo {k}" for k in range(34)),
    "pick",
    "maidi",
    "dingdi",
)
"""A readable name per action index (kinds as 0–33)."""

_TILE_BASE: tuple[tuple[Kind, int], ...] = (
    (Kind.CONCEALED_KONG, CKONG),
    (Kind.ADDED_KONG, AKONG),
    (Kind.EXTEND_KONG, XKONG),
    (Kind.SELECT, SELECT),
    (Kind.CUO, CUO),
)
_PLAIN: tuple[tuple[Kind, int], ...] = (
    (Kind.PASS, PASS_),
    (Kind.WIN, WIN_),
    (Kind.PUNG, PUNG),
    (Kind.KONG, KONG),
    (Kind.EXCHANGE, EXCHANGE),
    (Kind.MAIDI, MAIDI),
    (Kind.DINGDI, DINGDI),
)
"""Kinds and their index (the kind's tile added for those in ``_TILE_BASE``), scanned by identity: an enum's
hash is a Python call, even compiled."""
_INT8: Final = np.dtype(np.int8)
"""The mask's type, made once (``np.frombuffer`` reads a dtype given by position quicker than by name or
as a scalar type)."""
_PICK_ANY = Action(Kind.PICK, index=-1)
"""Stands for "pick" in an action table until the picker draws the position."""


def action_index(a: Action) -> int:
    """The index of an engine action in the fixed space (every 接受 and every pick share one index)."""
    k = a.kind
    if k is Kind.DISCARD:
        return (RIICHI if a.riichi else DISCARD) + a.tile
    for kind, base in _TILE_BASE:
        if kind is k:
            return base + a.tile
    for kind, index in _PLAIN:
        if kind is k:
            return index
    if k is Kind.CHOW:
        return CHOW + 7 * (a.tile // 9) + a.tile % 9
    if k is Kind.ACCEPT:
        return ACCEPT
    if k is Kind.PICK:
        return PICK
    raise ValueError(f"action {a} has no index in the learning action space")


def accept_choice(view: SeatView, legal: Sequence[Action]) -> Action | None:
    """The one 接受 (accept) the action space offers: give back the three tiles held that are least
    connected (fewest copies of the same and neighbouring kinds held; ties: the higher kind), never the
    offered kind; if that gift is not legal, the first legal accept in the engine's order."""
    accepts = [a for a in legal if a.kind is Kind.ACCEPT]
    if not accepts:
        return None
    h = view.hand
    offer = view.offer

    def link(t: int) -> int:
        n = h[t]
        if t < 27:
            r = t % 9
            n += (h[t - 1] if r > 0 else 0) + (h[t + 1] if r < 8 else 0)
        return n

    order = sorted((t for t in range(34) for _ in range(h[t]) if t != offer), key=lambda t: (link(t), -t))
    want = Action(Kind.ACCEPT, tiles=tuple(sorted(order[:3])))
    return want if want in accepts else accepts[0]


def action_table(view: SeatView, legal: Sequence[Action]) -> tuple[npt.NDArray[np.int8], dict[int, Action]]:
    """The mask over the fixed space and the engine action behind each allowed index (``pick`` maps to a
    placeholder: resolve it with :func:`resolve`)."""
    mask, table = action_bytes(view, legal)
    return np.frombuffer(mask, _INT8), table


def action_bytes(view: SeatView, legal: Sequence[Action]) -> tuple[bytearray, dict[int, Action]]:
    """:func:`action_table` with the mask as bytes (0 or 1 an index; an environment makes each
    observation's array on a copy of them)."""
    mask = bytearray(NUM_ACTIONS)  # set byte by byte (no numpy call an action)
    table: dict[int, Action] = {}
    accept, pick = Kind.ACCEPT, Kind.PICK  # (an enum member is an attribute look-up, even compiled)
    for a in legal:
        k = a.kind
        if k is accept or k is pick:
            continue
        i = action_index(a)
        table[i] = a
        mask[i] = 1
    if view.phase is Phase.TRIPLET:
        acc = accept_choice(view, legal)
        if acc is not None:
            table[ACCEPT] = acc
            mask[ACCEPT] = 1
    elif view.phase is Phase.HAIDI and legal:
        table[PICK] = _PICK_ANY
        mask[PICK] = 1
    return mask, table


def resolve(a: Action, reserve: int, rng: random.Random) -> Action:
    """The engine action to apply: a ``pick`` gets a position drawn from ``rng`` among ``reserve``."""
    if a is _PICK_ANY:
        return Action(Kind.PICK, index=rng.randrange(reserve))
    return a


# ------------------------------------------------------------------------------------ observations

_PHASE_AT: tuple[tuple[Phase, int], ...] = tuple((p, SCALARS.index(f"phase_{p.value}")) for p in PHASES)
"""Each phase's one-hot scalar, scanned by identity (an enum's hash is a Python call, even compiled)."""
_FIRST_PHASE: Final = min(at for _, at in _PHASE_AT)
_PHASE_BYTES: tuple[tuple[Phase, bytes], ...] = tuple(
    (p, bytes(int(i == at - _FIRST_PHASE) for i in range(NUM_SCALARS - _FIRST_PHASE))) for p, at in _PHASE_AT
)
"""Each phase's one-hot scalars as the bytes that end the scalars (they are last, after 18 others)."""
_NO_PHASE: Final = bytes(NUM_SCALARS - _FIRST_PHASE)
assert _FIRST_PHASE == 18 and len(PHASES) == NUM_SCALARS - 18, "the scalars: 18, then the phases"

ORACLE_PLANES: tuple[str, ...] = ("opponent_hand", "wall", "next_draw", "reserve")
"""The oracle observation's planes: the opponent's concealed tiles, the undrawn wall's tiles, the next
tile the head of the wall gives, the reserve (out of play) — read from the game state, not the view."""
NUM_ORACLE = len(ORACLE_PLANES)

_TILE_OF: dict[str, int] = {}
_ZERO_PLANES = bytes(NUM_PLANES * 34)
_UNSEEN = {c: bytes(max(0, c - v) for v in range(256)) for c in (4, 8)}
"""Copies unseen from copies seen, as a bytes.translate table, by copies of a kind."""


def _tile(text: str) -> int:
    t = _TILE_OF.get(text)
    if t is None:
        t = _TILE_OF[text] = parse_tile(text)
    return t


def encode(view: SeatView, planes: npt.NDArray[np.uint8], scalars: npt.NDArray[np.uint8]) -> None:
    """Write ``view`` into ``planes`` (NUM_PLANES × 34) and ``scalars`` (NUM_SCALARS)."""
    b, s = encode_bytes(view)
    planes.reshape(-1)[:] = np.frombuffer(b, dtype=np.uint8)
    scalars[:] = np.frombuffer(s, dtype=np.uint8)


def _river_row(river: tuple[int, ...]) -> list[int]:
    """A river's copies of each of the 34 kinds (flowers left out): a typed tuple is iterated natively when
    compiled, where :func:`erma.tiles.counts` iterates a generic sequence (and counts 42 kinds, cut after)."""
    row = [0] * 34
    for t in river:
        if t < 34:
            row[t] = row[t] + 1  # (not +=: compiled, that is a generic in-place add of boxed numbers)
    return row


def encode_bytes(view: SeatView) -> tuple[bytearray, bytearray]:
    """``view``'s planes (NUM_PLANES × 34, row by row) and scalars as two new byte buffers (an array can be
    made on each without a copy: ``np.frombuffer``)."""
    seat = view.seat
    other = 1 - seat
    b = bytearray(_ZERO_PLANES)  # one flat buffer, copied into the array at the end (fast in pure Python)
    b[0:34] = view.hand  # (a tuple assigned to a slice: quicker than through bytes(), compiled)
    if view.drawn is not None:
        b[34 + view.drawn] = 1
    # (a set's tiles added a kind at a time: a run's three kinds, a pung's or kong's size at once; each byte
    # added to is a generic item access, compiled)
    chow = MeldKind.CHOW
    for m in view.melds:
        t = m.tile
        if m.kind is chow:
            b[68 + t] += 1
            b[69 + t] += 1
            b[70 + t] += 1
        else:
            b[68 + t] += m.size
            if m.is_concealed:
                b[102 + t] = 1
    for m in view.opponent_melds:
        t = m.tile
        if m.kind is chow:
            b[136 + t] += 1
            b[137 + t] += 1
            b[138 + t] += 1
        else:
            b[136 + t] += m.size
    # the rivers counted in a list (compiled code indexes it natively) and given to the planes as one slice: a
    # byte set at a time is a generic item assignment
    b[170:204] = _river_row(view.discards[seat])
    b[204:238] = _river_row(view.discards[other])
    last = view.last_discard
    if last is not None and last < 34:
        b[238 + last] = 1
    b[272:306] = view.visible
    b[306:340] = b[272:306].translate(_UNSEEN[view.rules.copies])
    for t in view.revealed:
        if t < 34:
            b[340 + t] += 1
    for t in view.bonus_kinds:
        if t < 34:
            b[374 + t] = 1
    if view.wild is not None:
        b[408 + view.wild] = 1
    flipped = view.extras.get("flipped") if view.extras else None
    if flipped:
        t = _tile(flipped)
        if t < 34:
            b[442 + t] = 1
    if view.offer is not None:
        b[476 + view.offer] = 1
    for t in view.selected:
        b[510 + t] += 1
    for t in view.cuo_kinds:
        b[544 + t] = 1
    b[578:612] = view.counts
    s = bytearray(  # (one tuple made into bytes: quicker than a byte set at a time, compiled)
        (
            seat,
            view.dealer == seat,
            view.seat_winds[seat],
            view.prevalent_wind,
            view.riichi[seat],
            view.riichi[other],
            view.opponent_hand_count,
            min(255, view.wall_left),
            min(255, view.draws_left),
            min(255, view.reserve_count),
            view.win_multiplier,
            view.jokers,
            view.size,
            len(view.flowers[seat]),
            len(view.flowers[other]),
            len(view.meld_texts[seat]),
            len(view.meld_texts[other]),
            view.actor == seat,
        )
    )
    phase = view.phase
    for p, one_hot in _PHASE_BYTES:
        if p is phase:
            s += one_hot
            break
    else:
        s += _NO_PHASE
    return b, s


def encode_oracle(state: GameState, seat: int, out: npt.NDArray[np.uint8]) -> None:
    """Write the oracle planes (NUM_ORACLE × 34) of ``seat``: what it cannot see, from the state."""
    out.fill(0)
    out[0] = state.seats[1 - seat].counts
    wall = out[1]
    for t in state.wall[state.head : state.tail]:
        if t < 34:
            wall[t] += 1
    if state.head < state.tail and state.wall[state.head] < 34:
        out[2, state.wall[state.head]] = 1
    res = out[3]
    for t in state.reserve:
        if t < 34:
            res[t] += 1


def observe(view: SeatView) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
    """New arrays (planes, scalars) for ``view``."""
    planes = np.zeros((NUM_PLANES, 34), dtype=np.uint8)
    scalars = np.zeros(NUM_SCALARS, dtype=np.uint8)
    encode(view, planes, scalars)
    return planes, scalars


# --------------------------------------------------------------------------- the network's inputs

PRESET_NAMES = ("cuopai789", "classic64", "wushuang128", "wenzhou2p")
"""The presets the network knows (a one-hot input; another rule set gives zeros)."""
SCALAR_SCALE = np.array(
    [1, 1, 3, 3, 1, 1, 16, 136, 136, 136, 4, 8, 17, 8, 8, 6, 6, 1] + [1] * len(PHASES), dtype=np.float32
)
"""What each scalar is divided by in the network's input."""
NUM_INPUTS_V1 = NUM_PLANES * 34 + NUM_SCALARS + 35 + len(PRESET_NAMES)
"""The first encoding (version 1): planes, scalars, shanten after discarding each kind and now, the preset."""
NUM_INPUTS = NUM_PLANES * 34 + NUM_SCALARS + NUM_DERIVED + len(PRESET_NAMES)
"""The current encoding (version 2): planes, scalars, the derived inputs of :mod:`erma.bots.nn.derived`
(shanten and useful tiles per discard, draws that help, claims, 温州's 八对 and 财神), the preset."""
VERSIONS = {NUM_INPUTS_V1: 1, NUM_INPUTS: 2}
"""The encoding version a network's input size stands for."""


def shanten_plane(
    planes: npt.NDArray[np.uint8], scalars: npt.NDArray[np.uint8], allowed: int = 31
) -> npt.NDArray[np.float32]:
    """Derived from one observation: the shanten (向听) after discarding each kind held (9 where none is
    held) and, last, the shanten now — read from the ``played`` plane and the ``jokers`` scalar; counting
    the ``allowed`` shapes (:func:`erma.rules.shape_mask` of the preset; default every MCR shape)."""
    from erma.analysis import shapes
    from erma.analysis.tables import INC

    counts = planes[PLANES.index("played")].tolist()
    jokers = int(scalars[SCALARS.index("jokers")])
    wild = bool(planes[PLANES.index("wild")].any())
    key = 0
    n = 0
    for t, c in enumerate(counts):
        if c:
            key += INC[t] * c
            n += c
    out = np.full(35, 9.0, dtype=np.float32)
    if n + jokers == 0:
        return out
    if wild:  # wild tiles play as jokers; a discard is due with 3k+2 tiles, wilds included
        out[34] = shapes.regular(key, n, jokers)
        if (n + jokers) % 3 == 2:
            for t, c in enumerate(counts):
                if c:
                    out[t] = shapes.regular(key - INC[t], n - 1, jokers)
        return out
    out[34] = shapes.overall(key, n, 0, allowed)
    if n % 3 == 2:  # a discard is due
        for t, c in enumerate(counts):
            if c:
                out[t] = shapes.overall(key - INC[t], n - 1, 0, allowed)
    return out


def net_input(
    planes: npt.NDArray[np.uint8], scalars: npt.NDArray[np.uint8], rules: str, version: int = 2
) -> npt.NDArray[np.float32]:
    """The network's input vector for one observation of a hand of preset ``rules``, in encoding
    ``version`` (2, the current one, :data:`NUM_INPUTS` long; 1, the first, :data:`NUM_INPUTS_V1`)."""
    from erma.rules import PRESETS, shape_mask

    preset = np.zeros(len(PRESET_NAMES), dtype=np.float32)
    allowed = 31
    if rules in PRESET_NAMES:
        preset[PRESET_NAMES.index(rules)] = 1.0
    if version == 2:
        return np.concatenate(
            [
                planes.reshape(-1).astype(np.float32) * 0.25,
                scalars.astype(np.float32) / SCALAR_SCALE,
                derived(planes, scalars, rules) * DERIVED_SCALE,
                preset,
            ]
        )
    if rules in PRESETS:
        allowed = shape_mask(PRESETS[rules])
    return np.concatenate(
        [
            planes.reshape(-1).astype(np.float32) * 0.25,
            scalars.astype(np.float32) / SCALAR_SCALE,
            shanten_plane(planes, scalars, allowed) * 0.25,
            preset,
        ]
    )


__all__ = [
    "ACTION_NAMES",
    "NUM_ACTIONS",
    "NUM_INPUTS",
    "NUM_INPUTS_V1",
    "NUM_ORACLE",
    "NUM_PLANES",
    "NUM_SCALARS",
    "ORACLE_PLANES",
    "PLANES",
    "PRESET_NAMES",
    "SCALARS",
    "SCALAR_SCALE",
    "VERSIONS",
    "accept_choice",
    "action_index",
    "action_table",
    "encode",
    "encode_oracle",
    "net_input",
    "observe",
    "resolve",
    "shanten_plane",
]
