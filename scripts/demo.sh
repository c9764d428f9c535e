#!/usr/bin/env bash
# A demonstration: converts examples/linear_gelu.py and prints the generated Triton file on stdout; on a
# machine with a working NVIDIA GPU it then runs `tritonize check` on it (verify against PyTorch, and time
# against eager and torch.compile).
#
#   scripts/demo.sh [MODEL.py]     # default examples/linear_gelu.py
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
model=${1:-examples/linear_gelu.py}

scripts/setup.sh >&2  # its messages and the build log go to stderr; stdout is the generated file

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
build/tritonize convert "$model" -o "$out/generated.py"
cat "$out/generated.py"

if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
  echo >&2
  echo "== tritonize check $model (GPU: $(nvidia-smi -L | head -n 1))" >&2
  PATH="$PWD/.venv/bin:$PATH" build/tritonize check "$model"
else
  echo "(no working nvidia-smi here: skipped 'tritonize check', which verifies and times on a GPU)" >&2
fi
