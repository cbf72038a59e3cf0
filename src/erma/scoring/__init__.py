"""Fan scoring (算番): fan tables as data, one detector per fan, a pipeline of pure steps.

>>> r = score_record({"packs": [["PENG", "1z", 1]], "hand": "123456789m6z", "win_tile": "6z", "seat_wind": 2})
>>> [(f["name_zh"], f["points"], f["count"]) for f in r["fans"]], r["total"]
([('清龙', 16, 1), ('混一色', 6, 1), ('圈风刻', 2, 1), ('独听・单钓', 1, 1)], 25)

See docs/scoring.md for the record keys and the result shape.
"""

from erma.scoring.cli import cli_fan
from erma.scoring.context import WinContext, read_record
from erma.scoring.detectors import REGISTRY, FanSpec
from erma.scoring.facts import HandFacts
from erma.scoring.pipeline import (
    Plan,
    ScoredFan,
    ScoreResult,
    best,
    detect,
    exclude,
    plan_for,
    score,
    score_counts,
    score_record,
    score_view,
    total,
)
from erma.scoring.readings import HandView, readings
from erma.scoring.table import Exclusion, FanRow, FanTable, load_table, parse_table, table_names

__all__ = [
    "REGISTRY",
    "Exclusion",
    "FanRow",
    "FanSpec",
    "FanTable",
    "HandFacts",
    "HandView",
    "Plan",
    "ScoreResult",
    "ScoredFan",
    "WinContext",
    "best",
    "cli_fan",
    "detect",
    "exclude",
    "load_table",
    "parse_table",
    "plan_for",
    "read_record",
    "readings",
    "score",
    "score_counts",
    "score_record",
    "score_view",
    "table_names",
    "total",
]
