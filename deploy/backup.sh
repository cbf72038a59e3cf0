#!/usr/bin/env bash
# Dump the erma database with pg_dump (custom format, compressed) into a dated file, check that the file reads
# back, and delete dumps older than the kept days. docs/operations.md, "Backup and restore".
#
#   deploy/backup.sh [DB_URL [DIR]]
#
# DB_URL: the database `erma serve --db` uses (default $ERMA_DB; a SQLAlchemy driver suffix such as
# +asyncpg is dropped); DIR: where the dumps go (default $ERMA_BACKUP_DIR, else /var/backups/erma).
# $ERMA_BACKUP_KEEP_DAYS (default 14; 0 keeps every dump). Prints the path of the new dump.
# pg_dump takes a consistent snapshot: the servers keep running.
set -euo pipefail

url="${1:-${ERMA_DB:-}}"
dir="${2:-${ERMA_BACKUP_DIR:-/var/backups/erma}}"
keep="${ERMA_BACKUP_KEEP_DAYS:-14}"
if [[ -z "$url" ]]; then
    echo "backup.sh: no database: give DB_URL or set ERMA_DB" >&2
    exit 2
fi
url="${url/postgresql+*:\/\//postgresql://}"
url="${url/postgres:\/\//postgresql://}"
if [[ "$url" != postgresql://* ]]; then
    echo "backup.sh: $url is not a PostgreSQL URL (a SQLite database is one file: copy it with sqlite3 .backup)" >&2
    exit 2
fi

umask 077
mkdir -p "$dir"
out="$dir/erma-$(date -u +%Y%m%dT%H%M%SZ).dump"
pg_dump --format=custom --compress=6 --no-owner --no-privileges --file="$out.partial" "$url"
pg_restore --list "$out.partial" >/dev/null  # the archive reads back (its table of contents)
mv "$out.partial" "$out"

if [[ "$keep" -gt 0 ]]; then
    find "$dir" -maxdepth 1 -name 'erma-*.dump' -mtime "+$keep" -delete
fi
echo "$out"
