#!/usr/bin/env bash
# Full reproduction of the paper: every figure's experiments (tidy CSVs in results/), then
# every figure drawn from those CSVs alone (results/figures/). Stops at the first error.
#
#   ./run_all.sh                    # as in README's reproduction table
#   ./run_all.sh -resume            # continue an interrupted run (extra flags go to the runner)
#   ./run_all.sh -suite=quick       # another suite, into the runner's folder for it: results-quick/
#   OUT=/scratch/dpgibo ./run_all.sh
#   ./run_all.sh -h                 # these settings and the runner's flags; runs nothing
#
# The output folder is the runner's: results/ for the paper suite, results-SUITE/ for
# -suite=SUITE, or -out DIR among the flags; OUT=DIR passes -out DIR (a -out among the flags
# still wins, being later). So a run of one suite never writes into another suite's default
# folder unless told to.
#
# OpenBLAS is used when libopenblas and liblapacke are installed with their development
# links (Debian's libopenblas-dev and liblapacke-dev; about 2-3x faster on the GP and SVR
# tasks); its build needs the C compiler cgo uses (`go env CC`), and without one the script
# stops, naming DPGIBO_BLAS=go, which forces the pure-Go build. The two builds agree to
# rounding, not to the last bit, so compare CSVs only between runs of the same build.
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

BIN="${DPGIBO_BIN:-.bin}"
read -r -a exec_with <<<"${DPGIBO_EXEC:-}"

# What the runner will be told, read from the flags given here as its flag package reads
# them (the last of a flag wins; "--" ends the flags): the suite (run_all.sh passes
# -suite=paper first), -out, -plan, -allow-mixed-backend, and whether help was asked for.
# Other flags' values are skipped over, whatever they are.
suite=paper
out_flag=""
out_flag_given=false
plan=false
allow_mixed=false
help=false
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  arg=${args[i]}
  case "$arg" in
  --) break ;;
  -h | --h | -help | --help) help=true ;;
  -suite=* | --suite=*) suite=${arg#*=} ;;
  -suite | --suite)
    i=$((i + 1))
    suite=${args[i]:-}
    ;;
  -out=* | --out=*)
    out_flag=${arg#*=}
    out_flag_given=true
    ;;
  -out | --out)
    i=$((i + 1))
    out_flag=${args[i]:-}
    out_flag_given=true
    ;;
  -plan | --plan | -plan=true | --plan=true) plan=true ;;
  -plan=false | --plan=false) plan=false ;;
  -allow-mixed-backend | --allow-mixed-backend | -allow-mixed-backend=true | --allow-mixed-backend=true) allow_mixed=true ;;
  -allow-mixed-backend=false | --allow-mixed-backend=false) allow_mixed=false ;;
  esac
done

# The folder the runner will write to, and why: -out given here, else OUT, else the runner's
# own default for the suite (an empty -out is the default too).
if [ "$out_flag_given" = true ] && [ -n "$out_flag" ]; then
  out_dir=$out_flag
  out_why="set by -out"
elif [ "$out_flag_given" = false ] && [ -n "${OUT:-}" ]; then
  out_dir=$OUT
  out_why="set by OUT"
else
  out_dir=results
  if [ "$suite" != paper ]; then out_dir="results-$suite"; fi
  out_why="the runner's folder for -suite=$suite; OUT=DIR chooses another"
fi

# have_openblas says whether the linker can find OpenBLAS and LAPACKE: ldconfig's whole
# list is read first and then searched (a pipe into `grep -q` could die of SIGPIPE, which
# pipefail would read as "not installed").
have_openblas() {
  local libs
  command -v ldconfig >/dev/null 2>&1 || return 1
  libs=$(ldconfig -p 2>/dev/null) || return 1
  [[ $libs == *$'\t'"libopenblas.so "* && $libs == *$'\t'"liblapacke.so "* ]]
}

# c_compiler prints the path of the C compiler cgo would use (`go env CC`, its first word as
# command -v finds it) and fails when there is none.
c_compiler() {
  local cc
  local -a words
  cc=$(go env CC 2>/dev/null) || return 1
  read -r -a words <<<"$cc"
  [ ${#words[@]} -gt 0 ] || return 1
  command -v "${words[0]}" 2>/dev/null
}

if [ "$help" = true ]; then
  here="pure Go (OpenBLAS is not installed)"
  if [ "${DPGIBO_BLAS:-auto}" = go ]; then
    here="pure Go (DPGIBO_BLAS=go)"
  elif [ "${DPGIBO_BLAS:-auto}" != auto ]; then
    here="none: DPGIBO_BLAS=$DPGIBO_BLAS is not a setting (go, or unset)"
  elif have_openblas; then
    if cc=$(c_compiler); then
      here="OpenBLAS, built with the C compiler $cc"
    else
      here="none: OpenBLAS is installed but cgo's C compiler ($(go env CC 2>/dev/null)) is not found, so a run stops; DPGIBO_BLAS=go builds pure Go"
    fi
  fi
  cat <<EOF
Usage: [SETTING=VALUE ...] ./run_all.sh [FLAGS OF THE RUNNER]

Builds the experiment runner (experiments) and the figures command into DPGIBO_BIN, runs the
paper suite (or -suite=SUITE) and then draws every figure and writes the verdicts from the
CSVs alone. The first build takes a minute or two on 2 cores; later ones are incremental.
Exit status: the runner's (0 done, 1 an error, 2 a command-line mistake, 130 or 143 stopped
by SIGINT or SIGTERM: finished cells are kept, rerun with -resume); or, before it runs, 2
for a DPGIBO_BLAS or DPGIBO_SIMD that is not a setting, and 1 when run_all.sh stops (a build
or finished cells of the other BLAS backend, no C compiler for OpenBLAS, a build that does
not start).

Settings (environment variables):
  OUT=DIR          output folder, passed to the runner as -out DIR (a -out among the flags
                   wins). Default unset: the runner's own folder, results/ for the paper
                   suite and results-SUITE/ for -suite=SUITE.
                   Here: $out_dir ($out_why).
  DPGIBO_BLAS=go   build with gonum's pure-Go BLAS/LAPACK. Default auto: OpenBLAS when
                   libopenblas and liblapacke are installed (its build needs the C compiler
                   cgo uses, go env CC; without one run_all.sh stops rather than switch),
                   else pure Go. The two agree to rounding, not to the bit.
                   Here: $here.
  DPGIBO_SIMD=off  build without Go's experimental SIMD package. Default auto:
                   GOEXPERIMENT=simd when the toolchain has it on amd64 (the same bits; a
                   build that does not start on this CPU is replaced by one without it).
  DPGIBO_BIN=DIR   where the two commands are built. Default .bin.
  DPGIBO_EXEC=CMD  run the built commands under CMD, e.g. an emulator
                   (.ci/qemu-haswell). Default: none.

DPGIBO_BIN/experiments -version and DPGIBO_BIN/figures -version print the module version,
the commit, the build tags and GOEXPERIMENT of the build.

Flags of the runner, passed on after -suite=paper, -out OUT (when OUT is set) and
-render=false (the figures are drawn by the figures command):
EOF
  # The runner lists its own flags, built by go run (the default build, kept in Go's build
  # cache only: nothing is written into DPGIBO_BIN or the output folder); without a C
  # compiler, with cgo off, which the flags do not depend on.
  echo "(go run ./experiments -h lists them; its first build takes a minute or two)" >&2
  if c_compiler >/dev/null; then
    go run ./experiments -h 2>&1
  else
    CGO_ENABLED=0 go run ./experiments -h 2>&1
  fi
  exit 0
fi

case "${DPGIBO_BLAS:-auto}" in
auto | go) ;;
*)
  echo "run_all.sh: DPGIBO_BLAS=${DPGIBO_BLAS}: give DPGIBO_BLAS=go for the pure-Go build, or leave it unset (auto: OpenBLAS when installed)" >&2
  exit 2
  ;;
esac
case "${DPGIBO_SIMD:-auto}" in
auto | off) ;;
*)
  echo "run_all.sh: DPGIBO_SIMD=${DPGIBO_SIMD}: give DPGIBO_SIMD=off to build without Go's SIMD package, or leave it unset (auto)" >&2
  exit 2
  ;;
esac

tags=()
blas="pure Go (gonum)"
if [ "${DPGIBO_BLAS:-auto}" != "go" ] && have_openblas; then
  # OpenBLAS is linked through cgo: without the C compiler cgo uses, the build would fail
  # with a raw cgo error. Stop and say what works; never switch BLAS on our own.
  if ! c_compiler >/dev/null; then
    echo "run_all.sh: OpenBLAS is installed but the C compiler cgo uses (go env CC: $(go env CC 2>/dev/null)) is not found, so the OpenBLAS build cannot be made: install a C compiler (e.g. apt-get install gcc), or run DPGIBO_BLAS=go ./run_all.sh for the pure-Go build (its results agree with OpenBLAS's to rounding, not to the bit)" >&2
    exit 1
  fi
  export CGO_ENABLED=1
  tags=(-tags openblas)
  blas="OpenBLAS"
fi

if [ "${DPGIBO_SIMD:-auto}" != "off" ] && [ "$(go env GOARCH)" = amd64 ] &&
  [[ ",${GOEXPERIMENT:-}," != *,simd,* ]] && GOEXPERIMENT=simd go version >/dev/null 2>&1; then
  export GOEXPERIMENT="${GOEXPERIMENT:+$GOEXPERIMENT,}simd"
fi

# The same backend every time: a build in $BIN/ or cells in the output folder of the other
# backend stop the script before anything is built; it never switches backend on its own.
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
if [ -d "$out_dir/cells" ] && [ "$allow_mixed" = false ]; then
  done_file=$(find "$out_dir/cells" -name '*.done.csv' -print -quit)
  if [ -n "$done_file" ]; then
    made=$(sed -n 2p "$done_file")
    made=${made##*,}
    if [[ $made != "$want"* ]]; then
      echo "run_all.sh: $out_dir holds cells computed with BLAS $made and this run would use $blas; the two agree to rounding only, so run_all.sh does not mix them: run with the backend that made them, use another OUT, or pass -allow-mixed-backend" >&2
      exit 1
    fi
  fi
fi

# The command line that repeats this run, for the runner's messages on how to resume it.
rerun="./run_all.sh"
if [ -n "${OUT:-}" ]; then rerun="OUT=$(printf '%q' "$OUT") $rerun"; fi
[ "${DPGIBO_BLAS:-auto}" = go ] && rerun="DPGIBO_BLAS=go $rerun"
for arg in "$@"; do
  case "$arg" in
  -resume | --resume | -resume=true | --resume=true | -overwrite | --overwrite | -overwrite=true | --overwrite=true) ;;
  *) rerun+=" $(printf '%q' "$arg")" ;;
  esac
done
export DPGIBO_RERUN="$rerun"

# The binaries carry the commit they were built from (their -version, and the manifests,
# name the code that ran) whenever git can read this checkout, whatever GOFLAGS says: a
# GOFLAGS=-buildvcs=false set for checkouts git refuses to read is kept for those only.
vcs=()
if git status --porcelain >/dev/null 2>&1; then vcs=(-buildvcs=true); fi

build() {
  echo "run_all.sh: building the commands into $BIN/ ($blas${GOEXPERIMENT:+, GOEXPERIMENT=$GOEXPERIMENT}; the first build takes a minute or two)" >&2
  go build ${vcs[@]+"${vcs[@]}"} ${tags[@]+"${tags[@]}"} -o "$BIN/experiments" ./experiments
  go build ${vcs[@]+"${vcs[@]}"} -o "$BIN/figures" ./figures
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

echo "run_all.sh: output folder $out_dir ($out_why)" >&2
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

out_args=()
if [ -n "${OUT:-}" ]; then out_args=(-out "$OUT"); fi
${exec_with[@]+"${exec_with[@]}"} "$BIN/experiments" -suite=paper ${out_args[@]+"${out_args[@]}"} -render=false "$@"
# -plan runs nothing, so there is nothing to draw.
if [ "$plan" = true ]; then exit 0; fi
${exec_with[@]+"${exec_with[@]}"} "$BIN/figures" -in "$out_dir" -out "$out_dir/figures"
