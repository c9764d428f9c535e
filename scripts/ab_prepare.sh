#!/usr/bin/env bash
# A/B of two compilers on the GPU in ONE bench run: every corpus problem whose generated file differs between
# OLD and NEW is converted by both, as two samples of the same problem (GEN/<problem>/old.py and new.py), so the
# bench interleaves them in time. (Two separate runs of a short problem can differ by 30%: docs/HARNESS.md.)
#
#   scripts/ab_prepare.sh OLD_TRITONIZE NEW_TRITONIZE [OUT_DIR=.carry/ab]        (here)
#   PYTHONPATH=python python3 -m tritonize.bench $(cat OUT_DIR/refs.txt) --gen-dir OUT_DIR/gen \
#       --jobs-per-gpu 4 --no-compile --json OUT_DIR/ab.jsonl                      (device; carry OUT_DIR)
#   python3 scripts/ab_compare.py OUT_DIR/ab.jsonl                                 (either: the table)
set -euo pipefail
old=$(realpath "$1") new=$(realpath "$2") out=${3:-.carry/ab}  # (OUT_DIR relative to the checkout)
cd "$(dirname "${BASH_SOURCE[0]}")/.."
rm -rf "$out"
mkdir -p "$out/gen"
scripts/changed_problems.sh "$old" "$new" > "$out/refs.txt"
while read -r ref; do
  stem=$(basename "$ref" .py)
  mkdir -p "$out/gen/$stem"
  "$old" convert "$ref" -o "$out/gen/$stem/old.py"
  "$new" convert "$ref" -o "$out/gen/$stem/new.py"
done < "$out/refs.txt"
echo "$(wc -l < "$out/refs.txt") problems differ; samples in $out/gen/<problem>/{old,new}.py"
