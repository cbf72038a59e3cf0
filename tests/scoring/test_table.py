"""Fan tables as data: the packaged `mcr` table, and clear errors for unknown or malformed tables."""

from __future__ import annotations

import pytest

from erma.errors import RuleSetError
from erma.scoring import REGISTRY, load_table, parse_table, score_record, table_names

GOOD_HEAD = '[table]\nid = "t"\nname_zh = "测试"\nname_en = "Test"\n'


def test_mcr_table() -> None:
    t = load_table("mcr")
    assert "mcr" in table_names()
    assert len(t.rows) == 82
    assert t.cap is None
    assert t.row("concealed_kong_and_melded_kong").value == 5
    assert t.row("edge_wait").name_zh == "独听・边张"
    assert t.row("flower_tiles").counts_for_min is False
    for row in t.rows:
        assert row.id in REGISTRY
        for ex in row.excludes:
            assert ex.target in REGISTRY


def test_excluders_come_before_what_they_exclude_when_it_matters() -> None:
    """A row that excludes an earlier row may only exclude rows that exclude nothing themselves."""
    t = load_table("mcr")
    pos = {r.id: i for i, r in enumerate(t.rows)}
    for row in t.rows:
        for ex in row.excludes:
            if pos[ex.target] < pos[row.id]:
                assert not t.row(ex.target).excludes, (row.id, ex.target)


def test_unknown_table() -> None:
    with pytest.raises(RuleSetError, match="unknown fan table 'nope'"):
        load_table("nope")
    with pytest.raises(RuleSetError):
        score_record({"packs": [], "hand": "123m", "win_tile": "1m"}, table="nope")


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            '[[fans]]\nid = "not_a_fan"\nname_zh = "x"\nname_en = "x"\nvalue = 1\n',
            r"fan row 1 \('not_a_fan'\): unknown fan id",
        ),
        (
            '[[fans]]\nid = "self_drawn"\nname_zh = "x"\nname_en = "x"\nvalue = "one"\n',
            r"fan row 1 .*value must be",
        ),
        (
            '[[fans]]\nid = "self_drawn"\nname_zh = "x"\nname_en = "x"\nvalue = 1\ncolour = 1\n',
            r"unknown key\(s\) 'colour'",
        ),
        (
            '[[fans]]\nid = "self_drawn"\nname_zh = "x"\nname_en = "x"\nvalue = 1\nexcludes = ["nope"]\n',
            r"excludes unknown fan id 'nope'",
        ),
        (
            '[[fans]]\nid = "self_drawn"\nname_zh = "x"\nname_en = "x"\nvalue = 1\n'
            'excludes = [{ id = "last_tile", count = 2, own = true }]\n',
            r"count ≥ 1 or own = true",
        ),
        (
            '[[fans]]\nid = "self_drawn"\nname_zh = "x"\nname_en = "x"\nvalue = 1\n'
            '[[fans]]\nid = "self_drawn"\nname_zh = "x"\nname_en = "x"\nvalue = 1\n',
            r"fan row 2 .*appears twice",
        ),
        ("", r"no \[\[fans\]\] rows"),
        ("[[fans]\n", r"not valid TOML"),
    ],
)
def test_malformed_table(body: str, message: str) -> None:
    with pytest.raises(RuleSetError, match=message) as info:
        parse_table(GOOD_HEAD + body, "bad.toml")
    assert str(info.value).startswith("bad.toml")


def test_value_zero_is_not_scored() -> None:
    t = parse_table(
        GOOD_HEAD + '[[fans]]\nid = "self_drawn"\nname_zh = "自摸"\nname_en = "Self-Drawn"\nvalue = 0\n'
    )
    assert t.rows == ()
