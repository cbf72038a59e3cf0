"""The coach (教练): the review of a hand (复盘) — each decision beside the expert's, and what it cost."""

from __future__ import annotations

from erma.coach.kinds import DecisionKind, Tag
from erma.coach.review import FORMAT, review_record

__all__ = ["FORMAT", "DecisionKind", "Tag", "review_record"]
