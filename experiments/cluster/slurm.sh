#!/bin/bash
# A suite as a SLURM job array: each array task runs one shard of the cells; the last shard
# to finish writes the merged CSVs (identical to an unsharded run) and renders the figures.
# The output directory must be on a file system every node sees.
#
#   go build -o bin/experiments ./experiments      # once, on the login node
#   sbatch experiments/cluster/slurm.sh            # from the repository root
#   sbatch --export=ALL,SUITE=quick,OUT=results-quick experiments/cluster/slurm.sh
#
# Variables: SUITE (default paper), OUT (default results), SHARDS (default the array's size),
# BIN (default bin/experiments), EXTRA (more flags for the runner, e.g. -only=fig1).
#
# A task that fails, times out or is cancelled is simply resubmitted (-resume keeps every
# finished cell, and the resubmitted task merges if the others are done); a partial array
# must say how many shards the run has:
#   sbatch --array=3 --export=ALL,SHARDS=8 experiments/cluster/slurm.sh
# To merge by hand (e.g. after changing which shards ran):
#   bin/experiments -suite=paper -out results -merge
# experiments/cluster/test-slurm.sh runs this script on a private single-node cluster.
#
#SBATCH --job-name=dpgibo
#SBATCH --array=0-7
#SBATCH --cpus-per-task=2
#SBATCH --mem=4G
#SBATCH --time=04:00:00
#SBATCH --output=dpgibo-%A_%a.log
set -euo pipefail

# Shard K of N: K is the array index (0-based, --array=0-(N-1)); N is SHARDS, or the size
# of an array 0-(N-1). A partial array (a task resubmitted alone) must give SHARDS: its own
# size says nothing of the run's.
SUITE="${SUITE:-paper}"
OUT="${OUT:-results}"
BIN="${BIN:-bin/experiments}"
if [ -z "${SLURM_ARRAY_TASK_ID:-}" ]; then
  echo "slurm.sh: not an array task (submit with sbatch --array=0-N-1)" >&2
  exit 2
fi
if [ -z "${SHARDS:-}" ]; then
  if [ "${SLURM_ARRAY_TASK_MIN:-}" = 0 ] && [ "${SLURM_ARRAY_TASK_COUNT:-}" = "$((SLURM_ARRAY_TASK_MAX + 1))" ]; then
    SHARDS="$SLURM_ARRAY_TASK_COUNT"
  else
    echo "slurm.sh: task ${SLURM_ARRAY_TASK_ID} belongs to a partial array: give the run's number of shards (sbatch --array=${SLURM_ARRAY_TASK_ID} --export=ALL,SHARDS=N ...)" >&2
    exit 2
  fi
fi
if [ ! -x "$BIN" ]; then
  echo "slurm.sh: $BIN not found: build it first (go build -o $BIN ./experiments)" >&2
  exit 2
fi

# exec: the runner's exit status (0, 1, 2, 130, 143) is the task's, and a scancel's signal
# reaches it directly.
# shellcheck disable=SC2086
exec "$BIN" -suite="$SUITE" -out "$OUT" \
  -shard="${SLURM_ARRAY_TASK_ID}/${SHARDS}" \
  -workers="${SLURM_CPUS_PER_TASK:-1}" \
  -resume ${EXTRA:-}
