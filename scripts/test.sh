#!/usr/bin/env bash
# The one test command (CI runs it through .ci/run):
#
#   scripts/test.sh
#
# Stages, in order; a failing stage does not stop the later ones (except setup), and the command fails when
# any stage failed. A summary with each stage's time comes last.
#   setup     scripts/setup.sh: Debian packages, .venv, build/ (RelWithDebInfo)
#   ctest     ctest in build/: unit, golden and expected-error tests
#   asan      build-asan/ with -DTRITONIZE_SANITIZE=ON (ASan + UBSan), its ctest, and `tritonize convert` of
#             every corpus problem (shrunk) under the sanitizers
#   fuzz      build-fuzz/ with -DTRITONIZE_FUZZ=ON (clang, libFuzzer), each fuzz_* target for
#             $TRITONIZE_FUZZ_SECONDS seconds (default 60), two at a time, seeded from tests/fuzz/corpus/NAME/
#             and tests/corpus/
#   pytest    .venv/bin/python -m pytest -q -n 2 tests/numerics tests/python (the folders that exist)
#
# Environment:
#   TRITONIZE_STAGES        comma-separated subset of the stages after setup (default: all), e.g. ctest,pytest
#   TRITONIZE_FUZZ_SECONDS  seconds per fuzz target (default 60)
#   TRITONIZE_PYTEST_JOBS   pytest-xdist workers (default 2; 0 runs pytest without xdist)
#   TRITONIZE_PYTEST_ARGS   extra pytest arguments, e.g. "-k softmax -x"
set -uo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
STAGES=${TRITONIZE_STAGES:-ctest,asan,fuzz,pytest}
FUZZ_SECONDS=${TRITONIZE_FUZZ_SECONDS:-60}
PYTEST_JOBS=${TRITONIZE_PYTEST_JOBS:-2}
JOBS=$(nproc 2>/dev/null || echo 2)

# ccache keys on paths relative to the checkout, so a fresh clone elsewhere (CI) reuses earlier compiles.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$ROOT} CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-1}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:exitcode=86:strict_string_checks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:exitcode=86}

summary=()
failed=0
t_start=$SECONDS

banner() { printf '\n======== %s ========\n' "$*"; }

# run_stage NAME FUNCTION: runs it, records "NAME ok|FAILED|skipped (N s)".
run_stage() {
  local name=$1 fn=$2 t0=$SECONDS rc
  if [[ $name != setup && ",$STAGES," != *",$name,"* ]]; then
    summary+=("$(printf '%-8s %-8s' "$name" "skipped") (not in TRITONIZE_STAGES)")
    return 0
  fi
  banner "$name"
  "$fn"
  rc=$?
  local dt=$((SECONDS - t0))
  if ((rc == 0)); then
    summary+=("$(printf '%-8s %-8s %5d s' "$name" ok "$dt")${NOTE:+  $NOTE}")
  elif ((rc == 77)); then
    summary+=("$(printf '%-8s %-8s %5d s' "$name" skipped "$dt")${NOTE:+  $NOTE}")
  else
    summary+=("$(printf '%-8s %-8s %5d s' "$name" FAILED "$dt")${NOTE:+  $NOTE}")
    failed=1
  fi
  NOTE=
  return "$rc"
}
NOTE=

print_summary() {
  banner "summary"
  printf '%s\n' "${summary[@]}"
  printf 'total %d s\n' $((SECONDS - t_start))
}

# ------------------------------------------------------------------------------------------------- stages
stage_setup() {
  scripts/setup.sh
}

stage_ctest() {
  if [[ ! -f build/CTestTestfile.cmake ]]; then NOTE="no build/ (no CMakeLists.txt?)"; return 77; fi
  ctest --test-dir build --output-on-failure -j "$JOBS"
}

stage_asan() {
  if [[ ! -f CMakeLists.txt ]]; then NOTE="no CMakeLists.txt"; return 77; fi
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DTRITONIZE_SANITIZE=ON \
    -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DPython3_EXECUTABLE="$ROOT/.venv/bin/python" >/dev/null || return 1
  cmake --build build-asan || return 1
  local rc=0
  ctest --test-dir build-asan --output-on-failure -j "$JOBS" || rc=1
  # The compiler on every corpus problem: it may reject a problem (a diagnostic, exit 1), but the sanitizers
  # must report nothing (exit 86, or a signal).
  if [[ -x build-asan/tritonize ]]; then
    local f args status n=0 bad=0 out
    out=$(mktemp -d)
    for f in tests/corpus/*.py; do
      args=$(sed -n 's/^# cpu-shrink://p' "$f")
      grep -q '^# cpu-shrink:' "$f" || continue
      n=$((n + 1))
      # shellcheck disable=SC2086  # the --set words are meant to split
      build-asan/tritonize convert "$f" -o "$out/gen.py" $args >"$out/log" 2>&1
      status=$?
      if ((status == 86 || status >= 128)); then
        echo "sanitizer report (exit $status): build-asan/tritonize convert $f $args"
        awk '/^Shadow bytes around/ {exit} {print}' "$out/log" | tail -n 40
        bad=$((bad + 1))
      fi
    done
    rm -rf "$out"
    echo "tritonize convert under ASan+UBSan: $n corpus problems, $bad with a sanitizer report"
    ((bad == 0)) || rc=1
  fi
  return $rc
}

stage_fuzz() {
  shopt -s nullglob
  local sources=(tests/fuzz/fuzz_*.cpp)
  shopt -u nullglob
  if ((${#sources[@]} == 0)); then NOTE="no tests/fuzz/fuzz_*.cpp"; return 77; fi
  CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTRITONIZE_FUZZ=ON \
    -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_CXX_COMPILER_LAUNCHER=ccache >/dev/null || return 1
  cmake --build build-fuzz || return 1
  local bins=() b
  for b in build-fuzz/fuzz_*; do [[ -f $b && -x $b ]] && bins+=("$b"); done
  if ((${#bins[@]} == 0)); then NOTE="no fuzz targets were built"; return 1; fi
  mkdir -p build-fuzz/logs build-fuzz/artifacts
  local pids=() names=() i rc=0
  run_one() {
    local bin=$1 name
    name=$(basename "$bin")
    local work=build-fuzz/corpus/$name seeds=tests/fuzz/corpus/$name
    mkdir -p "$work"
    local args=("-max_total_time=$FUZZ_SECONDS" -timeout=10 -rss_limit_mb=4096 -print_final_stats=1
                "-artifact_prefix=build-fuzz/artifacts/$name-" "$work")
    [[ -d $seeds ]] && args+=("$seeds")  # read only: new inputs go to the first folder, $work
    args+=(tests/corpus)                 # every target also starts from the corpus problems
    [[ -f tests/fuzz/$name.dict ]] && args=("-dict=tests/fuzz/$name.dict" "${args[@]}")
    "$bin" "${args[@]}" >"build-fuzz/logs/$name.log" 2>&1
  }
  # Two at a time (the machine has two cores).
  for ((i = 0; i < ${#bins[@]}; i++)); do
    run_one "${bins[i]}" &
    pids+=($!)
    names+=("$(basename "${bins[i]}")")
    if ((${#pids[@]} % 2 == 0)) || ((i == ${#bins[@]} - 1)); then
      local j
      for j in "${!pids[@]}"; do
        [[ -z ${pids[j]} ]] && continue
        if wait "${pids[j]}"; then
          echo "fuzz ${names[j]}: ok  $(grep -E '^(#[0-9]+[[:space:]]+DONE|Done [0-9]+ runs)' "build-fuzz/logs/${names[j]}.log" | tail -n 1)"
        else
          echo "fuzz ${names[j]}: FAILED (log build-fuzz/logs/${names[j]}.log, inputs in build-fuzz/artifacts/)"
          tail -n 60 "build-fuzz/logs/${names[j]}.log"
          rc=1
        fi
        pids[j]=
      done
    fi
  done
  return $rc
}

stage_pytest() {
  local dirs=() d
  for d in tests/numerics tests/python; do [[ -d $d ]] && dirs+=("$d"); done
  if ((${#dirs[@]} == 0)); then NOTE="no test folders"; return 77; fi
  local xdist=()
  ((PYTEST_JOBS > 0)) && xdist=(-n "$PYTEST_JOBS")
  # shellcheck disable=SC2086  # TRITONIZE_PYTEST_ARGS is a list of words
  .venv/bin/python -m pytest -q "${xdist[@]}" "${dirs[@]}" ${TRITONIZE_PYTEST_ARGS:-}
}

# ---------------------------------------------------------------------------------------------------- run
if ! run_stage setup stage_setup; then
  print_summary
  echo "setup failed: nothing else can run"
  exit 1
fi
run_stage ctest stage_ctest
run_stage asan stage_asan
run_stage fuzz stage_fuzz
run_stage pytest stage_pytest
print_summary
exit $failed
