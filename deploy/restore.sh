#!/usr/bin/env bash
# Restore a dump made by deploy/backup.sh into a fresh database, then check the ledger there
# (`erma ledger check`). docs/operations.md, "Backup and restore".
#
#   deploy/restore.sh DUMP NEW_DB_URL
#
# NEW_DB_URL names a database that must not exist yet: it is created (through the `postgres` database of
# the same server, with the URL's credentials), the dump is restored into it in one transaction, and the
# ledger's invariants are checked. Exit 0 only if all of that succeeded; a restore that fails leaves no
# half-filled database behind. $ERMA: the erma command (default: erma on the PATH).
# The database in use is never touched: to switch to the copy, point ERMA_DB at it and restart erma@*.
set -euo pipefail

if [[ $# -ne 2 ]]; then
    echo "usage: restore.sh DUMP NEW_DB_URL" >&2
    exit 2
fi
dump="$1"
url="$2"
erma="${ERMA:-erma}"
url="${url/postgresql+*:\/\//postgresql://}"
url="${url/postgres:\/\//postgresql://}"
if [[ "$url" != postgresql://* ]]; then
    echo "restore.sh: $url is not a PostgreSQL URL" >&2
    exit 2
fi
if [[ ! -r "$dump" ]]; then
    echo "restore.sh: cannot read $dump" >&2
    exit 2
fi

# postgresql://user[:password]@host[:port]/NAME -> NAME, and the same URL on the `postgres` database. Options
# (TLS, a password file) go in libpq's environment (PGSSLMODE, PGPASSFILE…), which erma reads too.
rest="${url#postgresql://}"
if [[ "$rest" == *\?* ]]; then
    echo "restore.sh: give the URL without ?options (set PGSSLMODE and the like instead)" >&2
    exit 2
fi
if [[ "$rest" != */* || -z "${rest#*/}" ]]; then
    echo "restore.sh: $url names no database" >&2
    exit 2
fi
name="${rest#*/}"
if [[ ! "$name" =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]]; then
    echo "restore.sh: database name '$name': letters, digits and _ only" >&2
    exit 2
fi
admin="postgresql://${rest%%/*}/postgres"

if [[ -n "$(psql "$admin" -XAtqc "SELECT 1 FROM pg_database WHERE datname = '$name'")" ]]; then
    echo "restore.sh: database $name exists already: restore into a new one" >&2
    exit 2
fi
psql "$admin" -Xqc "CREATE DATABASE \"$name\""
if ! pg_restore --no-owner --no-privileges --exit-on-error --single-transaction --dbname="$url" "$dump"; then
    psql "$admin" -Xqc "DROP DATABASE \"$name\""
    echo "restore.sh: the restore failed; database $name dropped again" >&2
    exit 1
fi
echo "restored $dump into $name"
"$erma" ledger check --db "$url"
