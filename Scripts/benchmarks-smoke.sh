#!/usr/bin/env bash
# Runs every benchmark of Benchmarks/ once on a tiny workload, from an existing build, so CI
# sees that each still builds and runs to its end. No figure is checked: timings come from
# release runs by hand (Benchmarks/README.md).
#
# Usage: Scripts/benchmarks-smoke.sh [build products folder, default .build/debug]
# PostgreSQLBenchmark and PostgreSQLLoadBenchmark run only with a server (MANAGEDGEN_POSTGRES_URL);
# without one they are reported as not run, and CI always gives one.
set -euo pipefail
cd "$(dirname "$0")/.."
products=${1:-.build/debug}
small_model=Examples/Sources/DogWalk/DogWalk.xcdatamodeld

run() {
    local name=$1
    shift
    [ -x "$products/$name" ] || { echo "benchmarks: $products/$name is not built" >&2; exit 1; }
    echo "-- $name $*"
    local output status=0
    output=$("$products/$name" "$@" 2>&1) || status=$?
    if [ $status -ne 0 ]; then
        echo "$output" | tail -30
        echo "benchmarks: $name failed (exit $status)" >&2
        exit 1
    fi
    echo "$output" | tail -3
}

run ReadBenchmark --entities 20 --runs 1
run GenerateBenchmark --entities 20 --no-typecheck
run VersionsBenchmark --model "$small_model"
run GeneratedCodeBenchmark --entities 20 --runs 1 --no-build --corpus-model "$small_model"
run PredicateBenchmark 1000 1
run BatchMemoryBenchmark 2000 500
run MigrationBenchmark 500 1
run ContextBenchmark 500
run HistoryBenchmark 500 1
run TransformableBenchmark 500 1
run ExportBenchmark 2000 jsonl
run RuntimeBenchmark 500 1
run SnapshotBenchmark 500 1
run BatchBenchmark 2000 500 1
if [ -n "${MANAGEDGEN_POSTGRES_URL:-}" ]; then
    run PostgreSQLBenchmark 500
    run PostgreSQLLoadBenchmark 1000 1 2
else
    echo "-- PostgreSQLBenchmark, PostgreSQLLoadBenchmark not run: no MANAGEDGEN_POSTGRES_URL"
fi
echo "benchmarks: every one ran"
