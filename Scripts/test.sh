#!/usr/bin/env bash
# The package's tests (what `swift test` runs), as several test processes side by side.
#
#   Scripts/test.sh                     build the tests, then run all of them
#   TEST_PROCESSES=N Scripts/test.sh    N processes at a time (default: 2 a core, at least 4)
#
# Why not one `swift test`: Swift Testing runs a process's tests on Swift's cooperative thread
# pool, one thread a core. Tests that wait (on a child process, a context's queue, a killed
# writer, a notification) hold their thread while they wait, so on a 2-core machine one process
# runs its 782 tests in about 7.5 minutes using 70% of one core. Here the suites are dealt into
# chunks (a suite stays whole, so its serialized tests stay in order), the chunks run
# TEST_PROCESSES at a time, and the run fails unless every chunk passed and together they ran
# every test the bundle lists. Each chunk's output is printed whole when it ends, then
# one closing line for the whole run. (Swift Testing's tests only: the package has no XCTest
# tests, which `swift test` would also run.)
set -euo pipefail
cd "$(dirname "$0")/.."
. Scripts/stable-environment.sh
cores=$(nproc)
processes=${TEST_PROCESSES:-$((cores * 2 > 4 ? cores * 2 : 4))}
swift build --build-tests
# The test bundle is run directly, as `swift test` runs it: several `swift test` processes
# started together contend for SwiftPM's lock and build database, and lose.
tests="$(swift build --show-bin-path)/ManagedGenPackageTests.xctest"
export tests
[ -t 1 ] || export NO_COLOR=1

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$tests" --testing-library swift-testing --list-tests >"$work/tests"
listed=$(wc -l <"$work/tests")
# A test's ID is Module.Suite/…/test(): its suite is what comes before the first slash.
cut -d/ -f1 "$work/tests" | sort -u >"$work/suites"
# Three chunks a process, suites dealt round robin, so the slow suites spread out and a process
# that finishes early takes the next chunk.
chunks=$((processes * 3))
awk -v chunks="$chunks" '{ gsub(/\./, "\\."); line[NR % chunks] = line[NR % chunks] (line[NR % chunks] == "" ? "" : "|") $0 }
    END { for (i in line) print i "\t^(" line[i] ")/" }' "$work/suites" >"$work/chunks"

run_chunk() {
    local index=$1 filter=$2 status=0
    "$tests" --testing-library swift-testing --filter "$filter" >"$work/chunk-$index.txt" 2>&1 || status=$?
    echo "$status" >"$work/chunk-$index.status"
    cat "$work/chunk-$index.txt"
}
export -f run_chunk
export work
status=0
tr '\t' '\n' <"$work/chunks" | xargs -d '\n' -n 2 -P "$processes" bash -c 'run_chunk "$1" "$2"' _ || status=$?

ran=0
failed=()
while IFS=$'\t' read -r index _; do
    chunk_status=$(cat "$work/chunk-$index.status" 2>/dev/null || echo "not run")
    [ "$chunk_status" = 0 ] || failed+=("chunk $index (exit $chunk_status)")
    count=$(sed -n -E 's/.*Test run with ([0-9]+) tests?.*/\1/p' "$work/chunk-$index.txt" | tail -1)
    ran=$((ran + ${count:-0}))
done <"$work/chunks"
if [ ${#failed[@]} -gt 0 ] || [ $status -ne 0 ]; then
    echo "Tests FAILED in ${failed[*]:-a chunk} (the chunks' output is above)"
    exit 1
fi
if [ "$ran" -ne "$listed" ]; then
    echo "Tests FAILED: the chunks ran $ran tests; the test bundle lists $listed"
    exit 1
fi
echo "✔ Test run with $ran tests in $(wc -l <"$work/suites") suites passed in $processes processes at a time"
