#!/bin/bash
# The paper suite as a SLURM job array: each array task runs one shard of the cells; the
# last shard to finish writes the merged CSVs (identical to an unsharded run) and renders
# the figures. The output directory must be on a file system every node sees.
#
#   go build -o bin/experiments ./experiments      # once, on the login node
#   sbatch experiments/cluster/slurm.sh            # from the repository root
#
# A task that fails or times out is simply resubmitted (-resume keeps every finished cell):
#   sbatch --array=3 experiments/cluster/slurm.sh
# To merge by hand (e.g. after changing which shards ran):
#   bin/experiments -suite=paper -out results -merge
#
#SBATCH --job-name=dpgibo-paper
#SBATCH --array=0-7
#SBATCH --cpus-per-task=2
#SBATCH --mem=4G
#SBATCH --time=04:00:00
#SBATCH --output=dpgibo-paper-%A_%a.log
set -euo pipefail

# Shard K of N: K is the array index (0-based, --array=0-(N-1)); N the array size.
SHARDS="${SHARDS:-${SLURM_ARRAY_TASK_COUNT:-8}}"
OUT="${OUT:-results}"

bin/experiments -suite=paper -out "$OUT" \
  -shard="${SLURM_ARRAY_TASK_ID}/${SHARDS}" \
  -workers="${SLURM_CPUS_PER_TASK:-1}" \
  -resume
