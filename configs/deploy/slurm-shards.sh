#!/usr/bin/env bash
# Slurm: a fixed-size run as a job array without a database. Each array task plays one
# shard (the pairs whose number is I-1 modulo N) into its own folder; a last job merges
# them into one run's outputs. A config with [sprt] gets its verdict at the merge.
#
#   sbatch --array=1-32 configs/deploy/slurm-shards.sh configs/nightly-regression.toml
#   # when all tasks are done (or: sbatch --dependency=afterok:<jobid> ...):
#   xq-runner merge runs/shards/shard-*-of-32 --out runs/merged
#
# A task killed by its time limit resumes where it stopped when run again
# (xq-runner resume runs/shards/shard-I-of-N).
#SBATCH --job-name=xq-shard
#SBATCH --cpus-per-task=4
#SBATCH --time=04:00:00
#SBATCH --output=logs/xq-shard-%A-%a.log
set -euo pipefail
config=${1:?usage: sbatch --array=1-N slurm-shards.sh CONFIG}
shard="${SLURM_ARRAY_TASK_ID}/${SLURM_ARRAY_TASK_COUNT}"
folder="runs/shards/shard-${SLURM_ARRAY_TASK_ID}-of-${SLURM_ARRAY_TASK_COUNT}"
if [[ -f "$folder/run.json" ]]; then
    exec xq-runner resume "$folder" --concurrency "${SLURM_CPUS_PER_TASK:-1}"
fi
exec xq-runner run "$config" --shard "$shard" --out "$folder" \
    --concurrency "${SLURM_CPUS_PER_TASK:-1}"
