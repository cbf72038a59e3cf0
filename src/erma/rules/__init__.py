"""Rule sets (规则) as data: one frozen options record, documented defaults, presets found by name.

>>> rules = find_ruleset("classic64", min_fan=0)
>>> rules.name, rules.copies, rules.min_fan, rules.fan_table
('classic64', 4, 0, 'erqs')
>>> find_ruleset("classic64", min_fan="many")
Traceback (most recent call last):
...
erma.errors.RuleSetError: rule set 'classic64': min_fan must be an int ≥ 0, not 'many'
"""

from erma.rules.ruleset import PRESETS, RuleSet, find_ruleset, preset_names
from erma.rules.shapes import shape_mask, winnable_shapes

__all__ = ["PRESETS", "RuleSet", "find_ruleset", "preset_names", "shape_mask", "winnable_shapes"]
