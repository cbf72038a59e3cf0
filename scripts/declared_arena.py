"""erma's command line with the lab bot ``level5-dw`` registered (issue 39): level5 reading a declared
opponent's waits with the fitted model (``Settings(declared_model=True)``,
docs/lab/2026-12-07-level5-declared-waits-model.md).

    python scripts/declared_arena.py arena --rules classic64 --bots level5-dw,level5 --walls 1000 \
        --seed h39w5-tune --workers 1 --json
"""

from __future__ import annotations

import sys

from erma.bots.expert import ExpertBot, Settings
from erma.bots.registry import BOTS
from erma.cli import main

BOTS["level5-dw"] = lambda seed: ExpertBot(seed, settings=Settings(declared_model=True), name="level5-dw")
BOTS["level5-dwf"] = lambda seed: ExpertBot(
    seed, settings=Settings(declared_model=True, declared_fold=True), name="level5-dwf"
)

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
