#!/usr/bin/env bash
# Run the bench over deliberately broken generated files (tests/gpu/hacks) on a GPU and assert that each is
# caught, with its own reason (hacks/expected.json). Usage: tests/gpu/run_hacks.sh [OUT_DIR [BENCH OPTIONS...]]
# The report (report.html, results.jsonl, logs/) is left in OUT_DIR (default: a new temporary directory).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
out=${1:-$(mktemp -d -t tritonize-hacks-XXXXXX)}
shift || true  # the rest: extra bench options, e.g. --jobs-per-gpu 3
python=${PYTHON:-python3}
export PYTHONPATH="$repo/python${PYTHONPATH:+:$PYTHONPATH}"

"$python" -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else "run_hacks.sh needs a CUDA GPU")'

# The hang costs one --timeout; torch.compile is left out to keep the run short.
"$python" -m tritonize.bench "$here/hacks/refs" --gen-dir "$here/hacks/gen" --report "$out" \
    --timeout 90 --trials 30 --warmup 3 --no-compile --no-calibrate "$@"
"$python" "$here/assert_hacks.py" "$out/results.jsonl" "$here/hacks/expected.json"
