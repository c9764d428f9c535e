#!/usr/bin/env bash
# The GPU suite, run on the H200 through the device tool over a copy of the tree. The compiler is built here and
# carried (a stripped copy in .carry/, which .git/info/exclude ignores); the command converts every corpus problem
# there and scores it end to end:
#
#   mkdir -p .carry && strip -o .carry/tritonize build/tritonize      (here)
#   scripts/gpu_suite.sh [extra bench options, e.g. --resume]          (device; carry [".carry"])
#
# With HACKS=1 the deliberately broken files of tests/gpu/hacks run beside the corpus (tests/gpu/run_hacks.sh,
# which asserts that each is caught for its own reason); both runs take turns measuring through one lock.
# Results land in $OUT (or out/gpu): results.jsonl, summary.json, report.html, table.txt (the bench's tables),
# results.md (scripts/results_table.py), hacks.log, logs.tar.gz (the jobs' logs). The report folder itself stays
# in $REPORT (default /tmp/tz-report), so a second call on the same machine can go on with --resume.
# One call holds about 130-145 problems at 8 workers (session 8); session 9 ran 114 in the first 540 s call (8
# workers, hacks beside) and the other 185 with --resume at JOBS_PER_GPU=10 in a second call made at once, on the
# same warm machine, in 430 s. --resume needs the same machine, which is given back after 30 s idle: make the
# second call at once, or else run the corpus in parts, one call each, with PROBLEMS (paths or globs):
#   PROBLEMS='tests/corpus/[a-l]*.py' scripts/gpu_suite.sh    then    PROBLEMS='tests/corpus/[m-z]*.py' ...
# and concatenate the results.jsonl files.
# Environment: PROBLEMS (default tests/corpus), SUITE_SECONDS (whole run, default 540), TRIALS (timed trials per contender, default 100),
# JOB_SECONDS (per problem, lock wait included, default 300), JOBS_PER_GPU (workers sharing the GPU, default 6).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
OUT=${OUT:-out/gpu}
REPORT=${REPORT:-/tmp/tz-report}
BIN=${TRITONIZE_BIN:-.carry/tritonize}
[[ -x $BIN ]] || BIN=build/tritonize
mkdir -p "$OUT" "$REPORT" /tmp/tz-lock
export PYTHONUNBUFFERED=1 TRITONIZE_LOCK_DIR=/tmp/tz-lock
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader || true
hacks=
if [[ ${HACKS:-0} == 1 ]]; then
  PYTHONPATH=$PWD/python tests/gpu/run_hacks.sh /tmp/tz-hacks --jobs-per-gpu 2 > "$OUT/hacks.log" 2>&1 &
  hacks=$!
fi
problems=()  # PROBLEMS split and globbed; named files that are no problem (verify_corpus.py) left out
# shellcheck disable=SC2086
for p in ${PROBLEMS:-tests/corpus}; do
  { [[ -d $p ]] || grep -q '^class Model' "$p"; } && problems+=("$p")
done
timeout "${SUITE_SECONDS:-540}" "$BIN" bench "${problems[@]}" --report "$REPORT" \
  --trials "${TRIALS:-100}" --warmup 10 --timeout "${JOB_SECONDS:-300}" --jobs-per-gpu "${JOBS_PER_GPU:-6}" "$@" \
  2>&1 | tail -n 300 > "$OUT/table.txt"
if [[ -n $hacks ]]; then
  wait "$hacks"
  echo "run_hacks.sh exit status $?" >> "$OUT/hacks.log"
  tail -n 3 "$OUT/hacks.log"
fi
python3 scripts/results_table.py "$REPORT/results.jsonl" > "$OUT/results.md" 2>&1
cp "$REPORT/results.jsonl" "$REPORT/summary.json" "$REPORT/report.html" "$OUT"/ 2>/dev/null
# (each job's log, with how long it waited for and held the GPU lock: where a call's time went)
tar czf "$OUT/logs.tar.gz" -C "$REPORT" logs 2>/dev/null
tail -n 2 "$OUT/results.md"
ls "$OUT"
