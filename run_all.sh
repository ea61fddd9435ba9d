#!/usr/bin/env bash
# Full reproduction of the paper: every figure's experiments (tidy CSVs in results/), then
# every figure drawn from those CSVs alone (results/figures/). Stops at the first error.
#
#   ./run_all.sh                    # as in README's reproduction table
#   ./run_all.sh -resume            # continue an interrupted run (extra flags go to the runner)
#   OUT=/scratch/dpgibo ./run_all.sh
#
# OpenBLAS is used when libopenblas and liblapacke are installed with their development
# links (Debian's libopenblas-dev and liblapacke-dev; about 2-3x faster on the GP and SVR
# tasks); DPGIBO_BLAS=go forces the pure-Go build. The two builds agree to rounding, not to
# the last bit, so compare CSVs only between runs of the same build.
#
# Go's experimental SIMD package (GOEXPERIMENT=simd, Go 1.26 on amd64) computes the kernels'
# exponentials and the SVR solver's scans eight at a time on AVX-512 CPUs, with the same
# bits, and is safe on any CPU (without AVX-512 the scalar loops run); DPGIBO_SIMD=off leaves
# it out. DPGIBO_EXEC runs the built commands under another command (an emulator, say:
# DPGIBO_EXEC=".ci/qemu-haswell" runs them as an Intel Haswell, without AVX-512, would).
#
# The commands are built once into .bin/ (incremental after the first build), each is
# started once with -h to check that it runs on this CPU, and they are run from there, so
# that their exit statuses reach the shell (`go run` turns every failure into 1):
# 0 done, 1 an error, 2 a command-line mistake, 130 / 143 stopped by SIGINT / SIGTERM
# (finished cells are kept; rerun with -resume).
set -euo pipefail
cd "$(dirname "$0")"

OUT="${OUT:-results}"
BIN="${DPGIBO_BIN:-.bin}"
read -r -a exec_with <<<"${DPGIBO_EXEC:-}"

# have_openblas says whether the linker can find OpenBLAS and LAPACKE: ldconfig's whole
# list is read first and then searched (a pipe into `grep -q` could die of SIGPIPE, which
# pipefail would read as "not installed").
have_openblas() {
  local libs
  command -v ldconfig >/dev/null 2>&1 || return 1
  libs=$(ldconfig -p 2>/dev/null) || return 1
  [[ $libs == *$'\t'"libopenblas.so "* && $libs == *$'\t'"liblapacke.so "* ]]
}

tags=()
blas="pure Go (gonum)"
if [ "${DPGIBO_BLAS:-auto}" != "go" ] && have_openblas; then
  export CGO_ENABLED=1
  tags=(-tags openblas)
  blas="OpenBLAS"
fi

if [ "${DPGIBO_SIMD:-auto}" != "off" ] && [ "$(go env GOARCH)" = amd64 ] &&
  [[ ",${GOEXPERIMENT:-}," != *,simd,* ]] && GOEXPERIMENT=simd go version >/dev/null 2>&1; then
  export GOEXPERIMENT="${GOEXPERIMENT:+$GOEXPERIMENT,}simd"
fi

# The same backend every time: a build in $BIN/ or cells in $OUT of the other backend stop
# the script before anything is built; it never switches backend on its own.
want=gonum
[ "$blas" = OpenBLAS ] && want=openblas
other="pure Go (DPGIBO_BLAS=go)"
[ "$want" = gonum ] && other="OpenBLAS"
if [ -e "$BIN/experiments" ]; then
  built=gonum
  info=$(go version -m "$BIN/experiments" 2>/dev/null || true)
  [[ $info == *"-tags=openblas"* ]] && built=openblas
  if [ "$built" != "$want" ]; then
    echo "run_all.sh: $BIN/experiments is a $other build and this run would build $blas; the two agree to rounding only, so run_all.sh does not switch: run with the backend that built it, or remove $BIN/ to build $blas" >&2
    exit 1
  fi
fi
allow_mixed=false
for arg in "$@"; do
  case "$arg" in -allow-mixed-backend | --allow-mixed-backend | -allow-mixed-backend=true | --allow-mixed-backend=true) allow_mixed=true ;; esac
done
if [ -d "$OUT/cells" ] && [ "$allow_mixed" = false ]; then
  done_file=$(find "$OUT/cells" -name '*.done.csv' -print -quit)
  if [ -n "$done_file" ]; then
    made=$(sed -n 2p "$done_file")
    made=${made##*,}
    if [[ $made != "$want"* ]]; then
      echo "run_all.sh: $OUT holds cells computed with BLAS $made and this run would use $blas; the two agree to rounding only, so run_all.sh does not mix them: run with the backend that made them, use another OUT, or pass -allow-mixed-backend" >&2
      exit 1
    fi
  fi
fi

# The command line that repeats this run, for the runner's messages on how to resume it.
rerun="./run_all.sh"
[ "$OUT" != results ] && rerun="OUT=$(printf '%q' "$OUT") $rerun"
[ "${DPGIBO_BLAS:-auto}" = go ] && rerun="DPGIBO_BLAS=go $rerun"
for arg in "$@"; do
  case "$arg" in
  -resume | --resume | -resume=true | --resume=true | -overwrite | --overwrite | -overwrite=true | --overwrite=true) ;;
  *) rerun+=" $(printf '%q' "$arg")" ;;
  esac
done
export DPGIBO_RERUN="$rerun"

build() {
  echo "run_all.sh: building the commands into $BIN/ ($blas${GOEXPERIMENT:+, GOEXPERIMENT=$GOEXPERIMENT}; the first build takes a minute or two)" >&2
  go build ${tags[@]+"${tags[@]}"} -o "$BIN/experiments" ./experiments
  go build -o "$BIN/figures" ./figures
}

# start_failure prints the first built command that does not start (-h, exit status 0)
# with its status, and nothing when both start.
start_failure() {
  local cmd status
  for cmd in experiments figures; do
    status=0
    ${exec_with[@]+"${exec_with[@]}"} "$BIN/$cmd" -h >/dev/null 2>&1 || status=$?
    if [ "$status" -ne 0 ]; then
      echo "$BIN/$cmd -h exited with status $status"
      return
    fi
  done
}

build
failure=$(start_failure)
if [ -n "$failure" ] && [[ ",${GOEXPERIMENT:-}," == *,simd,* ]]; then
  echo "run_all.sh: the GOEXPERIMENT=simd build does not start on this CPU ($failure); building without it, which gives the same bytes" >&2
  GOEXPERIMENT=$(tr ',' '\n' <<<"$GOEXPERIMENT" | grep -vx simd | paste -sd, || true)
  if [ -n "$GOEXPERIMENT" ]; then export GOEXPERIMENT; else unset GOEXPERIMENT; fi
  build
  failure=$(start_failure)
fi
if [ -n "$failure" ]; then
  if [ "$blas" = OpenBLAS ]; then
    echo "run_all.sh: the OpenBLAS build does not start on this machine ($failure); DPGIBO_BLAS=go ./run_all.sh uses the pure-Go build (its results agree with OpenBLAS's to rounding, not to the bit)" >&2
  else
    echo "run_all.sh: the built commands do not start on this machine ($failure)" >&2
  fi
  exit 1
fi

${exec_with[@]+"${exec_with[@]}"} "$BIN/experiments" -suite=paper -out "$OUT" -render=false "$@"
# -plan runs nothing, so there is nothing to draw.
for arg in "$@"; do
  case "$arg" in -plan | --plan | -plan=true | --plan=true) exit 0 ;; esac
done
${exec_with[@]+"${exec_with[@]}"} "$BIN/figures" -in "$OUT" -out "$OUT/figures"
