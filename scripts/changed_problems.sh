#!/usr/bin/env bash
# The corpus problems whose generated file differs between two compilers (e.g. the one a GPU run used and the
# current one): a GPU run of only these, with earlier records of the rest, scores the current compiler.
#   scripts/changed_problems.sh OLD_TRITONIZE NEW_TRITONIZE [CORPUS_DIR]   -> one tests/corpus/NAME.py per line
set -euo pipefail
old=$1 new=$2 corpus=${3:-tests/corpus}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for f in "$corpus"/*.py; do
  "$old" convert "$f" -o "$tmp/old.py" 2>/dev/null || echo "# convert failed" > "$tmp/old.py"
  "$new" convert "$f" -o "$tmp/new.py" 2>/dev/null || echo "# convert failed" > "$tmp/new.py"
  cmp -s "$tmp/old.py" "$tmp/new.py" || echo "$f"
done
