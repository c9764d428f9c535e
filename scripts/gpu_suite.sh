#!/usr/bin/env bash
# The GPU suite, run on the H200 through the device tool over a copy of the tree, with the generated files of
# scripts/convert_corpus.py carried in gen/ (build and convert here; nothing is compiled there):
#
#   scripts/convert_corpus.py --out gen
#   (device) scripts/gpu_suite.sh [extra bench options, e.g. --resume --json prev.jsonl]
#
# Results (results.jsonl, summary.json, report.html, table.txt) land in $OUT (or out/gpu when $OUT is unset).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
OUT=${OUT:-out/gpu}
mkdir -p "$OUT" /tmp/tz-report
export PYTHONPATH=$PWD/python PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader || true
timeout "${SUITE_SECONDS:-540}" python3 -m tritonize.bench tests/corpus --gen-dir gen --report /tmp/tz-report \
  --trials "${TRIALS:-20}" --warmup 3 --timeout 90 "$@" 2>&1 | tail -n 140 | tee "$OUT/table.txt"
cp /tmp/tz-report/results.jsonl /tmp/tz-report/summary.json /tmp/tz-report/report.html "$OUT"/ 2>/dev/null
ls "$OUT"
