"""The closed sets of the review (复盘): what kind of decision was made, and what kind of mistake it was."""

from __future__ import annotations

import enum
from collections.abc import Sequence

from erma.game.actions import Action, Kind
from erma.game.state import Phase

KONGS = frozenset({Kind.CONCEALED_KONG, Kind.ADDED_KONG, Kind.EXTEND_KONG, Kind.KONG})


class DecisionKind(enum.Enum):
    """What a reviewed decision chose (the ``kind`` of a decision in ``erma review --json``)."""

    DISCARD = "discard"
    """打牌: which tile to discard."""
    CLAIM = "claim"
    """吃 / 碰 / 明杠 the opponent's discard, or pass."""
    KONG = "kong"
    """暗杠 / 加杠 on one's turn, or discard instead."""
    RIICHI = "riichi"
    """报听: declare ready with a discard, or discard without declaring."""
    EXCHANGE = "exchange"
    """开始时换牌: mark one more tile to give back, or commit."""
    TRIPLET = "triplet"
    """游戏中换牌: accept the offered triplet (giving three tiles), or pass."""
    CUO = "cuo"
    """搓牌: take a kind from the pool, or the wall's next tile."""
    HAIDI = "haidi"
    """海底捞月: the blind pick of a reserve tile."""
    STAKE = "stake"
    """买底 / 顶底 (温州): raise the stake, or pass."""
    WIN = "win"
    """和: take a win now, or play on."""


class Tag(enum.Enum):
    """What a mistake cost (the ``tag`` of a flagged decision)."""

    EFFICIENCY = "efficiency"
    """牌效: the hand is slower to ready (fewer useful tiles, or further from ready)."""
    VALUE = "value"
    """打点: as fast, but the wins it leads to are worth less (or a win taken or declined wrongly)."""
    DEFENCE = "defence"
    """防守: the tile is more likely to deal in (点炮)."""
    CALL = "call"
    """鸣牌: a claim, kong, triplet offer or 搓牌 taken or passed wrongly."""
    READY = "ready"
    """报听: declared or not declared wrongly."""
    EXCHANGE = "exchange"
    """换牌: the start exchange gave back the wrong tiles (or too many, too few)."""


def decision_kind(phase: Phase, legal: Sequence[Action]) -> DecisionKind:
    """The kind of a decision from the phase and the legal actions (a win on offer makes it a win
    decision; a kong on offer at one's turn a kong decision; a 报听 on offer a 报听 decision)."""
    if any(a.kind is Kind.WIN for a in legal):
        return DecisionKind.WIN
    if phase is Phase.TURN:
        if any(a.kind in KONGS for a in legal):
            return DecisionKind.KONG
        if any(a.riichi for a in legal):
            return DecisionKind.RIICHI
        return DecisionKind.DISCARD
    return {
        Phase.CLAIM: DecisionKind.CLAIM,
        Phase.ROB: DecisionKind.WIN,
        Phase.EXCHANGE: DecisionKind.EXCHANGE,
        Phase.TRIPLET: DecisionKind.TRIPLET,
        Phase.CUO: DecisionKind.CUO,
        Phase.HAIDI: DecisionKind.HAIDI,
        Phase.MAIDI: DecisionKind.STAKE,
        Phase.DINGDI: DecisionKind.STAKE,
    }.get(phase, DecisionKind.DISCARD)
