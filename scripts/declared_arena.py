"""erma's command line with lab bots of the declared-waits model registered (issue 39): ``level5-nodw``,
level5 as it was before the fitted model of a declared opponent's waits was switched on
(``Settings(declared_model=False, declared_fold=False)``), and ``level5-dw``, the model without the fold
(docs/lab/2026-12-07-level5-declared-waits-model.md). level5 itself has both on.

    python scripts/declared_arena.py arena --rules classic64 --bots level5,level5-nodw --walls 1000 \
        --seed S --workers 1 --json
"""

from __future__ import annotations

import sys

from erma.bots.expert import ExpertBot, Settings
from erma.bots.registry import BOTS
from erma.cli import main

BOTS["level5-nodw"] = lambda seed: ExpertBot(
    seed, settings=Settings(declared_model=False, declared_fold=False), name="level5-nodw"
)
BOTS["level5-dw"] = lambda seed: ExpertBot(seed, settings=Settings(declared_fold=False), name="level5-dw")

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
