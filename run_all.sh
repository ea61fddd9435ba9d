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
set -euo pipefail
cd "$(dirname "$0")"

OUT="${OUT:-results}"
tags=()
if [ "${DPGIBO_BLAS:-auto}" != "go" ] && command -v ldconfig >/dev/null 2>&1 &&
  ldconfig -p | grep -q 'libopenblas\.so' && ldconfig -p | grep -q 'liblapacke\.so'; then
  export CGO_ENABLED=1
  tags=(-tags openblas)
  echo "run_all.sh: using OpenBLAS" >&2
fi

# Go's experimental SIMD package (Go 1.26 on amd64) computes the kernels' exponentials
# eight at a time on AVX-512 CPUs, with the same bits; DPGIBO_SIMD=off leaves it out.
if [ "${DPGIBO_SIMD:-auto}" != "off" ] && [ "$(go env GOARCH)" = amd64 ] &&
  GOEXPERIMENT=simd go version >/dev/null 2>&1; then
  export GOEXPERIMENT="${GOEXPERIMENT:+$GOEXPERIMENT,}simd"
  echo "run_all.sh: using GOEXPERIMENT=$GOEXPERIMENT" >&2
fi

go run ${tags[@]+"${tags[@]}"} ./experiments -suite=paper -out "$OUT" -render=false "$@"
go run ./figures -in "$OUT" -out "$OUT/figures"
