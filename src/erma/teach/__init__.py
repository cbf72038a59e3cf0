"""Teaching (规则教学): what the rules pages and the first guided hand (新手教程) show, made by the engine.

- :mod:`erma.teach.fan_examples`: an example hand for every fan of a preset's table, found by a seeded search
  with the scorer (``scripts/gen_teach_data.py --fans`` refreshes the stored examples).
- :mod:`erma.teach.phases`: each special phase of a preset shown on a hand the bots played (seeds found by a
  search with the engine), and a worked settlement.
- :mod:`erma.teach.page`: a preset's whole rules page (options, phases, fans with examples).
- :mod:`erma.teach.tutorial`: the guided first hand: a fixed wall, the player's steps.

Pure: no I/O beyond reading this package's data files; seeded generators only.
"""
