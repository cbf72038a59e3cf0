#!/bin/bash
# The fresh-seed report of issue 39's learned value (docs/lab/2026-12-07-level5-learned-value.md):
# level5 as on main against greedy (erma arena, with records), the candidate (level5 with the learned
# weights) against greedy on the same seeds (scripts/arena_fans.py play), their pair, and the candidate's
# null (against itself). One process at a time; run niced: nice -n 10 scripts/learned_report.sh OUT W_C64 W_W128
set -e
OUT=${1:-runs/h39o/report}; WC=${2:-runs/h39o/w-classic64-a.json}; WW=${3:-runs/h39o/w-wushuang128-a.json}
SEED=${SEED:-h39o-report}; WALLS=${WALLS:-1000}; FROM=${FROM:-3}
PY=.venv/bin/python
mkdir -p "$OUT"
for R in classic64 wushuang128; do
  if [ "$R" = classic64 ]; then W=$WC; else W=$WW; fi
  .venv/bin/erma arena --rules $R --bots level5,greedy --walls $WALLS --seed $SEED --workers 1 --json \
      --no-progress --records "$OUT/rec-$R" > "$OUT/arena-$R.json"
  $PY scripts/arena_fans.py records "$OUT/rec-$R" --out "$OUT/main-$R.jsonl"
  $PY scripts/arena_fans.py play --rules $R --bots level5,greedy --walls $WALLS --seed $SEED \
      --a-settings "far_weights=@$W,learned_from=$FROM" --out "$OUT/cand-$R.jsonl"
  echo "$R pair (candidate − main): $($PY scripts/arena_fans.py pair "$OUT/cand-$R.jsonl" "$OUT/main-$R.jsonl")"
  echo "$R candidate vs greedy: $($PY scripts/arena_fans.py split "$OUT/cand-$R.jsonl" | head -1)"
done
$PY scripts/arena_fans.py play --rules classic64 --bots level5,level5 --walls 300 --seed $SEED \
    --a-settings "far_weights=@$WC,learned_from=$FROM" --b-settings "far_weights=@$WC,learned_from=$FROM" \
    --out "$OUT/null-classic64.jsonl"
$PY - "$OUT/null-classic64.jsonl" <<'PYEOF'
import json, statistics, sys
from collections import defaultdict
w = defaultdict(int)
for line in open(sys.argv[1]):
    r = json.loads(line)
    w[r["wall"]] += r["a"]
d = list(w.values())
m = statistics.mean(d)  # as the arena: a wall's two games summed (A − B) / 2
h = 1.96 * statistics.stdev(d) / len(d) ** 0.5
print(f"null classic64 (candidate, candidate): walls {len(d)} diff {m:+.2f} ({m - h:+.2f} … {m + h:+.2f})")
PYEOF
