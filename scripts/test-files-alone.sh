#!/bin/bash
# Runs every test file alone (`CI=true npx vitest run <file>`), one after the other, on SQLite or,
# with the argument `postgresql`, on PostgreSQL: a file that passes only after another one fails
# here. Writes one TSV line per file (file, exit code, seconds, vitest's Tests line) to the
# output (default test-files-alone-<database>.tsv) and keeps the output of each failed file beside it.
#   scripts/test-files-alone.sh [sqlite|postgresql] [output.tsv] [first file]
# With a first file (a path under test/), the run starts there in sorted order: an interrupted
# audit goes on where it stopped.
set -u
database=${1:-sqlite}
out=${2:-test-files-alone-$database.tsv}
first=${3:-}
case $database in
  sqlite) export FORGELINE_TEST_DATABASE= ;;
  postgresql) export FORGELINE_TEST_DATABASE=postgresql ;;
  *) echo "usage: $0 [sqlite|postgresql] [output.tsv]" >&2; exit 2 ;;
esac
: > "$out"
log=$(mktemp)
failed=0
for file in $(find test -name '*.test.ts' | sort); do
  [[ -n "$first" && "$file" < "$first" ]] && continue
  started=$(date +%s)
  CI=true timeout 900 npx vitest run "$file" > "$log" 2>&1
  rc=$?
  tests=$(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -E '^\s+Tests ' | tail -1 | sed 's/^ *//')
  printf '%s\t%s\t%s\t%s\n' "$file" "$rc" "$(( $(date +%s) - started ))" "$tests" >> "$out"
  if [ "$rc" -ne 0 ]; then
    failed=$((failed + 1))
    cp "$log" "$out.$(echo "$file" | tr / _).log"
  fi
done
rm -f "$log"
echo "$(wc -l < "$out") files, $failed failed: $out"
[ "$failed" -eq 0 ]
