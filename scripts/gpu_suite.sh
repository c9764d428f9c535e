#!/usr/bin/env bash
# The GPU suite, run on the H200 through the device tool over a copy of the tree, with the generated files of
# scripts/convert_corpus.py carried in gen/ (build and convert here; nothing is compiled there):
#
#   scripts/convert_corpus.py --out gen
#   (device) scripts/gpu_suite.sh [extra bench options, e.g. --resume --json prev.jsonl]
#
# Results (results.jsonl, summary.json, report.html, table.txt) land in $OUT (or out/gpu when $OUT is unset).
# Environment: SUITE_SECONDS (whole run, default 540), TRIALS (timed trials per contender, default 100),
# JOB_SECONDS (per problem, lock wait included, default 300), JOBS_PER_GPU (workers sharing the GPU, default 4).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
OUT=${OUT:-out/gpu}
mkdir -p "$OUT" /tmp/tz-report
export PYTHONPATH=$PWD/python PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader || true
timeout "${SUITE_SECONDS:-540}" python3 -m tritonize.bench tests/corpus --gen-dir gen --report /tmp/tz-report \
  --trials "${TRIALS:-100}" --warmup 10 --timeout "${JOB_SECONDS:-300}" --jobs-per-gpu "${JOBS_PER_GPU:-4}" "$@" 2>&1 | tail -n 140 | tee "$OUT/table.txt"
cp /tmp/tz-report/results.jsonl /tmp/tz-report/summary.json /tmp/tz-report/report.html "$OUT"/ 2>/dev/null
ls "$OUT"
