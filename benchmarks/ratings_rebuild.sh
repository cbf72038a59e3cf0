#!/bin/bash
# Rebuild equals stored after a load test (docs/ratings.md, "Rebuild after load"): `erma serve` on a fresh
# database (SQLite in a temporary folder, or a new PostgreSQL database on 127.0.0.1:5432, trust auth) with the
# clock at 1/20, `erma loadtest` against it, the server stopped (SIGINT), then `erma ratings rebuild --dry-run`,
# `erma ledger check` and the counts of rated matches and hands.
#
# usage (from the repository root): benchmarks/ratings_rebuild.sh sqlite|pg PORT TABLES SECONDS [DB]
# DB: go on with the database of an earlier run (its PostgreSQL name, or its SQLite file) — the rebuild then
# replays every rated match of all the runs.
set -u
KIND=$1; PORT=$2; TABLES=$3; SECS=$4; AGAIN=${5:-}
BIN=${BIN:-.venv/bin}
D=$(mktemp -d /tmp/erma-rebuild-$KIND.XXXX)
if [ "$KIND" = pg ]; then
  DBN=${AGAIN:-erma_rebuild_$(date +%s)}
  [ -n "$AGAIN" ] || psql -q -h 127.0.0.1 -U postgres -d postgres -c "CREATE DATABASE $DBN"
  DB=postgresql://postgres@127.0.0.1:5432/$DBN
else
  [ -z "$AGAIN" ] || cp "$AGAIN" "$D/erma.db"
  DB=sqlite:///$D/erma.db
fi
echo "database $DB (logs in $D)"
$BIN/erma serve --port "$PORT" --db "$DB" --data "$D" --setting time_scale=0.05 > "$D/serve.log" 2>&1 &
SERVER=$!
sleep 6
$BIN/erma loadtest --url "ws://127.0.0.1:$PORT/ws" --tables "$TABLES" --seconds "$SECS" --think 0.05 --json \
  > "$D/load.json" 2> "$D/load.err"
echo "loadtest exit $?"; cat "$D/load.json"
sleep 5
kill -INT $SERVER; wait $SERVER
echo "server exit $?, $(grep -c Traceback "$D/serve.log") tracebacks in its log"
$BIN/erma ratings rebuild --db "$DB" --dry-run; echo "rebuild exit $?"
$BIN/erma ledger check --db "$DB"; echo "ledger exit $?"
Q="select (select count(*) from rated_matches), (select count(*) from rated_matches where hands = 8),
  (select count(*) from rated_hands), (select count(*) from ratings)"
echo "rated matches, of them 8 hands, rated hands, rating rows:"
if [ "$KIND" = pg ]; then
  psql -h 127.0.0.1 -U postgres -d "$DBN" -At -c "$Q"
else
  $BIN/python -c "import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone())" \
    "$D/erma.db" "$Q"
fi
