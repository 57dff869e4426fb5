#!/usr/bin/env bash
# Commits the data store's new chunks and manifest rows, and nothing else:
# run it beside `kestrel selfplay --store data/` (which writes a chunk every
# hour), for example `while sleep 600; do scripts/commit-data.sh; done`.
# The chunk writer has already read each chunk back and checked it.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -z "$(git status --porcelain -- data/)" ] && exit 0
# The writers' manifest lock (src/train/store.ts), so that no chunk or row
# is committed half written; when a writer holds it, the next run commits.
lock=data/README.md.lock
( set -o noclobber; echo $$ > "$lock" ) 2>/dev/null || exit 0
trap 'rm -f "$lock"' EXIT
git add -- data/
# The new rows: | # | file | network | bundle | seed | settings | first | games | positions | ...
added=$(git diff --cached -U0 -- data/README.md | grep '^+| ' || true)
[ -z "$added" ] && { echo "data/ changed without a new manifest row: not committed" >&2; git reset -q -- data/; exit 1; }
summary=$(printf '%s\n' "$added" | awk -F'|' '
  { gsub(/[ ,`]/, "", $3); gsub(/[ ,]/, "", $6); gsub(/[ ,]/, "", $8); gsub(/[ ,]/, "", $9); gsub(/[ ,]/, "", $10)
    n++; pos += $10; what = what sprintf("%s%s (seed %s, games %d-%d, %d positions)", sep, $3, $6, $8, $8 + $9 - 1, $10); sep = "\n" }
  END { printf "%d|%.2f|%s", n, pos / 1e6, what }')
count=${summary%%|*}; rest=${summary#*|}; millions=${rest%%|*}; list=${rest#*|}
# The engine is the last commit's, and so is its bench: OpenBench reads a
# branch's bench from its newest commit message.
bench=$(git log -1 --format=%B --grep='^Bench: ' | grep '^Bench: ' | tail -1)
git commit -q -m "Data: ${count} new chunk(s), ${millions} M positions" -m "$list" -m "$bench" -- data/
git log -1 --format='%h %s'
