#!/usr/bin/env bash
# Sets up a machine for tritonize: Debian packages, the Python environment .venv (torch, triton, numpy,
# pytest; pinned in scripts/requirements.txt) and the build in build/. Idempotent, and quick when everything
# is already there: no apt-get when every package is installed, no pip when .venv was made from the same
# requirements file.
#
#   scripts/setup.sh             # everything
#   scripts/setup.sh --no-build  # packages and .venv only
#
# Environment:
#   TRITONIZE_WHEELS   wheel cache folder (default ~/.cache/tritonize-wheels). The registry here sends wheels
#                      with caching off, so pip's own cache stays empty; this folder keeps the ~2.7 GB of
#                      wheels so that a second .venv (a fresh clone, CI) installs without downloading.
#   PYTHON             interpreter for the venv (default: Debian's /usr/bin/python3)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD

build=1
for arg in "$@"; do
  case "$arg" in
    --no-build) build=0 ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "setup.sh: unknown argument $arg" >&2; exit 2 ;;
  esac
done

log() { printf '[setup] %s\n' "$*"; }

# ---------------------------------------------------------------------------------------------- packages
APT_PACKAGES=(g++ cmake ninja-build ccache libgtest-dev clang libclang-rt-dev python3 python3-venv)
missing=()
for p in "${APT_PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
if ((${#missing[@]})); then
  SUDO=()
  if [[ $(id -u) -ne 0 ]]; then SUDO=(sudo); fi
  log "installing Debian packages: ${missing[*]}"
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  log "Debian packages: all present"
fi

# ------------------------------------------------------------------------------------------------- .venv
REQ=scripts/requirements.txt
PY=${PYTHON:-/usr/bin/python3}
[[ -x $PY ]] || PY=$(command -v python3)
WHEELS=${TRITONIZE_WHEELS:-$HOME/.cache/tritonize-wheels}
STAMP=.venv/.tritonize-requirements
want="$(sha256sum "$REQ" | cut -d' ' -f1) $("$PY" -c 'import sys; print(sys.version.split()[0])')"

venv_ok() {
  [[ -x .venv/bin/python && -f $STAMP && "$(cat "$STAMP")" == "$want" ]] || return 1
  # The stamp says what was installed; make sure it is still there (cheap: no torch import).
  .venv/bin/python - <<'EOF' 2>/dev/null
import importlib.metadata as m, sys
want = {"torch": "2.11.0", "triton": "3.6.0", "numpy": "2.3.5", "pytest": "9.2.0"}
sys.exit(any(m.version(k) != v for k, v in want.items()))
EOF
}

if venv_ok; then
  log ".venv: up to date ($(.venv/bin/python -c 'import importlib.metadata as m; print("torch", m.version("torch"), "triton", m.version("triton"), "numpy", m.version("numpy"))'))"
else
  t0=$SECONDS
  if [[ ! -x .venv/bin/python ]] || ! .venv/bin/python -c 'import sys' 2>/dev/null; then
    rm -rf .venv
    log "creating .venv with $PY"
    "$PY" -m venv .venv
  fi
  mkdir -p "$WHEELS"
  # Offline from the wheel cache when it has everything; else fill the cache first, then install from it.
  if ! .venv/bin/pip install -q --no-index --find-links "$WHEELS" -r "$REQ" 2>/dev/null; then
    log "downloading wheels into $WHEELS (about 2.7 GB the first time)"
    .venv/bin/pip download -q -d "$WHEELS" -r "$REQ"
    .venv/bin/pip install -q --no-index --find-links "$WHEELS" -r "$REQ"
  fi
  echo "$want" > "$STAMP"
  log ".venv: installed in $((SECONDS - t0)) s"
fi

# ------------------------------------------------------------------------------------------------- build
# ccache keys on paths relative to the checkout, so a fresh clone elsewhere (CI) reuses earlier compiles.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$ROOT} CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-1}
if ((build)) && [[ -f CMakeLists.txt ]]; then
  if [[ -f build/CMakeCache.txt ]] && ! grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja$' build/CMakeCache.txt; then
    log "build/ was configured with another generator: starting it again"
    rm -rf build
  fi
  t0=$SECONDS
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
    -DPython3_EXECUTABLE="$ROOT/.venv/bin/python" >/dev/null
  cmake --build build
  log "build: done in $((SECONDS - t0)) s"
fi
