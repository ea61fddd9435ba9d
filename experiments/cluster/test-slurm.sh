#!/usr/bin/env bash
# Runs experiments/cluster/slurm.sh on a real SLURM: a private single-node cluster started
# here (its own slurm.conf, ports, state directories and munge socket, so a host that
# already runs SLURM or munge is not touched), the quick suite as an array of 4 shards with
# one CPU each. Shard 3 is held on a test hook after a few evaluations (a binary built with
# -tags testhooks; the hook prints a line to the task's log when it holds) and cancelled
# with scancel while it holds, then resubmitted alone. The merged output must be byte for
# byte that of an unsharded run of the same build, merged and rendered by exactly one task.
# Every daemon started here is stopped by PID at the end, whatever happens.
#
#   bash experiments/cluster/test-slurm.sh        # as root, or a user with sudo
#
# Installs slurm-wlm and munge from Debian when missing (about 35 s).
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
export PATH="$PATH:/usr/local/go/bin:/usr/sbin"

SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
log() { echo "test-slurm: $*" >&2; }
fail() { log "FAIL: $*"; exit 1; }

if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
  log "installing slurm-wlm and munge"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null
fi

work=$(mktemp -d /tmp/dpgibo-slurm.XXXXXX)
chmod 755 "$work"
pids=()
cleanup() {
  local status=$?
  for pidfile in "$work"/run/slurmd.pid "$work"/run/slurmctld.pid "$work"/munge/munged.pid; do
    if [ -s "$pidfile" ]; then
      $SUDO kill "$(cat "$pidfile")" 2>/dev/null || true
    fi
  done
  for pid in ${pids[@]+"${pids[@]}"}; do kill "$pid" 2>/dev/null || true; done
  sleep 1
  for pidfile in "$work"/run/slurmd.pid "$work"/run/slurmctld.pid "$work"/munge/munged.pid; do
    if [ -s "$pidfile" ]; then
      $SUDO kill -9 "$(cat "$pidfile")" 2>/dev/null || true
    fi
  done
  if [ $status -ne 0 ]; then
    for f in "$work"/log/*.log "$work"/out-logs/*.log; do
      [ -f "$f" ] && { echo "---- $f"; tail -n 30 "$f"; } >&2
    done
  fi
  $SUDO rm -rf "$work"
  exit $status
}
trap cleanup EXIT

# Free TCP ports for slurmctld and slurmd.
free_port() {
  local p
  for p in $(seq "$1" $(($1 + 200))); do
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
      echo "$p"
      return
    fi
  done
  fail "no free port from $1"
}
ctld_port=$(free_port 26817)
slurmd_port=$(free_port $((ctld_port + 1)))

mkdir -p "$work"/{munge,run,log,state,spool,out-logs}
log "munge on its own socket"
dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 status=none
chmod 700 "$work/munge"
chmod 400 "$work/munge/munge.key"
munged --force --key-file="$work/munge/munge.key" --socket="$work/munge/munge.socket" \
  --pid-file="$work/munge/munged.pid" --log-file="$work/log/munged.log" --seed-file="$work/munge/munged.seed"

host=$(hostname -s)
node=$(slurmd -C | head -n 1 | sed "s/^NodeName=[^ ]*/NodeName=$host/")
cat >"$work/slurm.conf" <<CONF
ClusterName=dpgibotest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=$(id -un)
SlurmdUser=$(id -un)
AuthType=auth/munge
AuthInfo=socket=$work/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/run/slurmctld.pid
SlurmdPidFile=$work/run/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
KillWait=10
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$work/slurm.conf"

log "building the runner (pure Go, with the test hooks)"
go build -tags testhooks -o "$work/bin/experiments" ./experiments

log "starting slurmctld and slurmd (ports $ctld_port, $slurmd_port)"
$SUDO env SLURM_CONF="$SLURM_CONF" slurmctld -i
$SUDO env SLURM_CONF="$SLURM_CONF" slurmd
for _ in $(seq 100); do
  state=$(sinfo -h -o %T 2>/dev/null || true)
  [ "$state" = idle ] && break
  sleep 0.2
done
[ "$state" = idle ] || fail "the node is not idle after 20 s (state '$state')"

# The task wrapper: shard 3, on its first run only, holds its 20th evaluation for ever.
cat >"$work/bin/task" <<WRAP
#!/bin/bash
if [ "\$SLURM_ARRAY_TASK_ID" = 3 ] && [ ! -e "$work/held-once" ]; then
  touch "$work/held-once"
  export DPGIBO_TESTHOOK_HOLD=20
fi
exec "$work/bin/experiments" "\$@"
WRAP
chmod +x "$work/bin/task"

out="$work/out"
submit() {
  sbatch --parsable --chdir="$repo" --cpus-per-task=1 --mem=1G --time=00:20:00 \
    --output="$work/out-logs/%A_%a.log" \
    --export=ALL,SUITE=quick,OUT="$out",BIN="$work/bin/task",SHARDS=4 "$@" \
    experiments/cluster/slurm.sh
}
wait_job() { # wait until job $1 has left the queue
  for _ in $(seq 900); do
    [ -z "$(squeue -h -j "$1" 2>/dev/null)" ] && return 0
    sleep 1
  done
  fail "job $1 still queued after 15 min"
}

log "submitting the quick suite as an array of 4 shards"
job=$(submit --array=0-3)
held_log="$work/out-logs/${job}_3.log"
for _ in $(seq 600); do
  grep -q "testhook: holding" "$held_log" 2>/dev/null && break
  sleep 0.5
done
grep -q "testhook: holding" "$held_log" || fail "shard 3 never reached its hold"
log "shard 3 holds; cancelling it"
scancel "${job}_3"
wait_job "$job"
[ -e "$out/manifest.json" ] && fail "the run was merged although shard 3 was cancelled"
sacct_state=$(squeue -h -j "$job" 2>/dev/null || true)
[ -z "$sacct_state" ] || fail "job $job still queued: $sacct_state"
grep -q "finished cells are kept" "$held_log" || log "note: shard 3's log has no stop message"

log "resubmitting shard 3 alone"
job2=$(submit --array=3)
wait_job "$job2"
grep -q "found finished" "$work/out-logs/${job2}_3.log" 2>/dev/null || true
[ -e "$out/manifest.json" ] || fail "no merged manifest after shard 3 was resubmitted"

log "the same build, unsharded"
"$work/bin/experiments" -suite=quick -out "$work/ref" -quiet

status=0
for f in "$work"/ref/*.csv "$work"/ref/*.csv.gz; do
  [ -e "$f" ] || continue
  name=$(basename "$f")
  case "$name" in timings*.csv) continue ;; esac
  if ! cmp -s "$f" "$out/$name"; then
    log "FAIL: $name differs from the unsharded run"
    status=1
  fi
done
[ $status -eq 0 ] || exit 1
nfig=$(find "$out/figures" -name '*.png' 2>/dev/null | wc -l)
[ "$nfig" -gt 0 ] || fail "no figure rendered"
merges=$(grep -l "done: figure CSVs" "$work"/out-logs/*.log 2>/dev/null | wc -l)
[ "$merges" -eq 1 ] || fail "$merges tasks merged and rendered; want exactly 1"
log "passed: $(ls "$work"/ref/*.csv | wc -l) result files identical to the unsharded run, $nfig figures rendered once"
for f in "$work"/out-logs/*.log; do echo "---- $(basename "$f")"; cat "$f"; done
