#!/usr/bin/env bash
# Full reproduction of the paper: every figure's experiments (tidy CSVs in results/), then
# every figure drawn from those CSVs alone (results/figures/). Stops at the first error.
#
#   ./run_all.sh                    # as in README's reproduction table
#   ./run_all.sh -resume            # continue an interrupted run (extra flags go to the runner)
#   OUT=/scratch/dpgibo ./run_all.sh
#
# OpenBLAS is used when libopenblas and liblapacke are installed (about 2-3x faster on the
# GP and SVR tasks); DPGIBO_BLAS=go forces the pure-Go build. The two builds agree to
# rounding, not to the last bit, so compare CSVs only between runs of the same build.
#
# The commands are built once into .bin/ (incremental after the first build) and run from
# there, so that their exit statuses reach the shell (`go run` turns every failure into 1):
# 0 done, 1 an error, 2 a command-line mistake, 130 / 143 stopped by SIGINT / SIGTERM
# (finished cells are kept; rerun with -resume).
set -euo pipefail
cd "$(dirname "$0")"

OUT="${OUT:-results}"
BIN="${DPGIBO_BIN:-.bin}"
tags=()
blas="pure Go (gonum)"
if [ "${DPGIBO_BLAS:-auto}" != "go" ] && command -v ldconfig >/dev/null 2>&1 &&
  ldconfig -p | grep -q 'libopenblas\.so' && ldconfig -p | grep -q 'liblapacke\.so'; then
  export CGO_ENABLED=1
  tags=(-tags openblas)
  blas="OpenBLAS"
fi

# Go's experimental SIMD package (Go 1.26 on amd64) computes the kernels' exponentials
# eight at a time on AVX-512 CPUs, with the same bits; DPGIBO_SIMD=off leaves it out.
if [ "${DPGIBO_SIMD:-auto}" != "off" ] && [ "$(go env GOARCH)" = amd64 ] &&
  GOEXPERIMENT=simd go version >/dev/null 2>&1; then
  export GOEXPERIMENT="${GOEXPERIMENT:+$GOEXPERIMENT,}simd"
fi

echo "run_all.sh: building the commands into $BIN/ ($blas${GOEXPERIMENT:+, GOEXPERIMENT=$GOEXPERIMENT}; the first build takes a minute or two)" >&2
go build ${tags[@]+"${tags[@]}"} -o "$BIN/experiments" ./experiments
go build -o "$BIN/figures" ./figures

"$BIN/experiments" -suite=paper -out "$OUT" -render=false "$@"
# -plan runs nothing, so there is nothing to draw.
for arg in "$@"; do
  case "$arg" in -plan | --plan | -plan=true | --plan=true) exit 0 ;; esac
done
"$BIN/figures" -in "$OUT" -out "$OUT/figures"
