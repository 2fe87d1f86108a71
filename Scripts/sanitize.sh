#!/usr/bin/env bash
# Runs test targets under a sanitizer, each sanitizer in a build folder of its own.
#
#   Scripts/sanitize.sh thread  [TEST FILTER]    Thread Sanitizer (default filter: ManagedObjectsTests)
#   Scripts/sanitize.sh address [TEST FILTER]    Address Sanitizer
#
# SANITIZE_SCRATCH_PATH names the build folder (default .build-thread or .build-address, with
# -runtime for the runtime's tests alone).
# With MANAGEDGEN_POSTGRES_URL set (Scripts/postgres.sh start), the PostgreSQL store's tests
# run against that server, and skipping them counts as a failure.
#
# Fails when a test fails or the sanitizer reports anything.
set -euo pipefail
cd "$(dirname "$0")/.."
sanitizer=${1:?usage: Scripts/sanitize.sh thread|address [test filter]}
filter=${2:-ManagedObjectsTests}
case "$sanitizer" in thread | address) ;; *) echo "no sanitizer '$sanitizer' (thread or address)" >&2; exit 2 ;; esac
# The runtime's tests alone need only the runtime: the package is cut down to it and its tests
# (MANAGEDGEN_RUNTIME_TESTS_ONLY, see Package.swift), which spares building SwiftNIO, BoringSSL
# and the generator under the sanitizer. Any other filter builds the whole package.
# SwiftPM writes the cut-down package's resolution into Package.resolved: it is put back after.
if [ "$filter" = ManagedObjectsTests ] || [[ "$filter" == ManagedObjectsTests.* ]]; then
    export MANAGEDGEN_RUNTIME_TESTS_ONLY=1
    resolved_backup=$(mktemp)
    if [ -f Package.resolved ]; then
        cp Package.resolved "$resolved_backup"
        trap 'cp "$resolved_backup" Package.resolved; rm -f "$resolved_backup"' EXIT
    else
        trap 'rm -f Package.resolved "$resolved_backup"' EXIT
    fi
fi
# The cut-down package builds in a folder of its own: modules another build left in a shared
# folder (PostgreSQLStore's, say) would be found and fail to load.
scratch=${SANITIZE_SCRATCH_PATH:-.build-$sanitizer${MANAGEDGEN_RUNTIME_TESTS_ONLY:+-runtime}}
log="$scratch/test-output.txt"
# The build runs the sanitized managedgen (the build plugin generates the seeds' classes): leak
# detection is off there too, since LeakSanitizer cannot see references Swift keeps with tag
# bits in an enum payload and reports what they hold as leaked.
ASAN_OPTIONS="detect_leaks=0" swift build --build-tests --sanitize="$sanitizer" --scratch-path "$scratch"
mkdir -p "$scratch"
# Swift's crash backtracer and the sanitizers' own reports get in each other's way. One test
# at a time: slowed down several times over, tests blocking on context queues side by side
# starve each other of threads and hit their time limits.
# Thread Sanitizer skips suites that run on one thread (or whose other side is a child process
# it does not watch): codecs, file formats, migrations of real stores, SQL translation, killed
# processes. Nothing for it to find there, and eight minutes of its run; they all run in the
# plain test step (and the fuzz targets run the readers under AddressSanitizer).
single_threaded_suites=(
    KeyedArchiveCompatibilityTests HostileKeyedArchiveTests HostileStoreTests ExternalBinaryDataTests
    AppStoreMigrationTests AppMappingModelTests CorpusBundleMigrationTests SQLPredicateTranslatorTests
    SQLiteMigrationCrashTests SQLiteCrashSafetyTests AtomicStoreCrashTests
)
skip=()
[ "$sanitizer" != thread ] || skip=(--skip "$(IFS='|'; echo "${single_threaded_suites[*]}")")
status=0
SWIFT_BACKTRACE=enable=no TSAN_OPTIONS="halt_on_error=1" ASAN_OPTIONS="detect_leaks=0" \
    swift test --skip-build --no-parallel --sanitize="$sanitizer" --scratch-path "$scratch" --filter "$filter" "${skip[@]}" >"$log" 2>&1 || status=$?
grep -E "Test run with [0-9]+ tests?" "$log" | tail -1 || true
if [ $status -ne 0 ] || grep -q "WARNING: ThreadSanitizer\|ERROR: AddressSanitizer" "$log"; then
    grep -E -A40 "WARNING: ThreadSanitizer|ERROR: AddressSanitizer|✘" "$log" | head -120
    echo "$sanitizer sanitizer: FAILED (the whole output is in $log)"
    exit 1
fi
# A server was given, so its tests must have run (they skip only where none was asked for).
if [ -n "${MANAGEDGEN_POSTGRES_URL:-}" ] && grep -q "skipped: \"set MANAGEDGEN_POSTGRES_URL" "$log"; then
    echo "$sanitizer sanitizer: PostgreSQL store tests were skipped with a server given (the whole output is in $log)"
    exit 1
fi
echo "$sanitizer sanitizer: clean"
