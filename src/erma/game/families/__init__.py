"""The rule families (规则家族) by the name a rule set's ``family`` option gives.

Each family is one module of hooks behind :class:`erma.game.family.Family`; families never import each
other (an import-linter contract checks it), and nothing above the game layer names one.
"""

from __future__ import annotations

from erma.game.families.standard import Standard
from erma.game.families.wenzhou import Wenzhou
from erma.game.family import Family
from erma.rules import RuleSet

FAMILIES: dict[str, Family] = {"standard": Standard(), "wenzhou": Wenzhou()}
"""Every family the engine plays, by name."""


def family_for(rules: RuleSet) -> Family:
    """The family a rule set plays (its ``family`` option)."""
    return FAMILIES[rules.family]


__all__ = ["FAMILIES", "family_for"]
