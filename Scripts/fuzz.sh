#!/usr/bin/env bash
# Runs one libFuzzer target of Fuzz/ (or every target: `all`).
#
#   [FUZZ_SEED=N] Scripts/fuzz.sh TARGET [RUNS]
#                                      build with -sanitize=fuzzer,address, replay the target's
#                                      kept fail cases (Fuzz/FailCases/TARGET), then run RUNS
#                                      executions (default 1000000) from seeds out of ../shared
#                                      and Fuzz/Seeds
#
# `all` builds every target in one build, then runs each. FUZZ_CONFIGURATION=debug builds in
# debug (CI's short smoke runs: it compiles in a third of the time; long runs want release).
#
# A crash stops the run and leaves its input in Fuzz/.build/crashes/TARGET; minimise it
# (`Fuzz/.build/release/TARGET -minimize_crash=1 -runs=100000 FILE`), fix the bug, and keep the
# input under Fuzz/FailCases/TARGET/ so every later run replays it.
set -euo pipefail
script="$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
cd "$(dirname "$0")/../Fuzz"
fuzz=$(pwd)
export FUZZ_SHARED="$fuzz/../../shared"
# Swift's own crash backtracer trips AddressSanitizer; libFuzzer prints the stack itself.
export SWIFT_BACKTRACE=enable=no
targets=(FuzzModelReader FuzzMappingModelReader FuzzGenerate FuzzPredicateParser FuzzPredicateEvaluation FuzzSQLTranslation FuzzStoreOpener FuzzKeyedArchiveReader)
target=${1:?usage: Scripts/fuzz.sh TARGET|all [RUNS]; targets: ${targets[*]}}
runs=${2:-1000000}
configuration=${FUZZ_CONFIGURATION:-release}
case "$configuration" in debug | release) ;; *) echo "FUZZ_CONFIGURATION is debug or release, not '$configuration'" >&2; exit 2 ;; esac
[[ "$target" == all || " ${targets[*]} " == *" $target "* ]] || { echo "no fuzz target '$target'; targets: ${targets[*]}" >&2; exit 2; }

# One -sanitize flag naming both: given as two flags, the driver keeps only one of them.
if [ -z "${FUZZ_BUILT:-}" ]; then
    product=()
    [ "$target" = all ] || product=(--product "$target")
    swift build -c "$configuration" --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address "${product[@]}" 2>&1 |
        grep -v "Cannot export local symbol" >&2
fi
if [ "$target" = all ]; then
    for each in "${targets[@]}"; do FUZZ_BUILT=1 "$script" "$each" "$runs"; done
    exit 0
fi
binary="$fuzz/.build/$configuration/$target"

# Seeds, made anew each run: real models, real stores, or the format strings of Fuzz/Seeds.
seeds="$fuzz/.build/seeds/$target"
rm -rf "$seeds" && mkdir -p "$seeds"
case "$target" in
FuzzModelReader | FuzzGenerate)
    find "$FUZZ_SHARED/corpus" -name contents -type f -size -64k -print0 |
        while IFS= read -r -d '' file; do cp "$file" "$seeds/$(printf '%s' "$file" | md5sum | cut -c1-16)"; done
    max_len=65536 ;;
FuzzMappingModelReader)
    find "$fuzz/../Tests/DataModelTests/Fixtures/MappingModels" -name xcmapping.xml -type f -print0 |
        while IFS= read -r -d '' file; do cp "$file" "$seeds/$(printf '%s' "$file" | md5sum | cut -c1-16)"; done
    max_len=65536 ;;
FuzzStoreOpener)
    find "$FUZZ_SHARED/stores" -name '*.sqlite' -type f -print0 |
        while IFS= read -r -d '' file; do cp "$file" "$seeds/$(basename "$file")"; done
    max_len=65536 ;;
FuzzKeyedArchiveReader)
    # Archives the target writes itself: of Foundation's plist types, and those found in the
    # bytes of ../shared/stores (read as bytes, never opened as databases).
    ASAN_OPTIONS=detect_leaks=0 FUZZ_WRITE_SEEDS="$seeds" "$binary" >/dev/null
    max_len=4096 ;;
FuzzPredicateParser)
    split -l 1 "$fuzz/Seeds/predicates.txt" "$seeds/p"
    max_len=512 ;;
FuzzPredicateEvaluation)
    # Each format string with one object to evaluate it on.
    n=0
    while IFS= read -r line; do
        n=$((n + 1))
        printf '%s\nname=Ben\nage=%d\nchildren=[1,2,3]\nbirthday=@%d\ntags=[x,swift]\nflag=true\ngrade=nil\n' \
            "$line" $((n % 20)) $((n * 86400)) >"$seeds/e$n"
    done <"$fuzz/Seeds/predicates.txt"
    max_len=1024 ;;
FuzzSQLTranslation)
    split -l 1 "$fuzz/Seeds/item-predicates.txt" "$seeds/i"
    max_len=512 ;;
esac

if [ -d "$fuzz/FailCases/$target" ]; then
    echo "== $target: replaying $(ls "$fuzz/FailCases/$target" | wc -l) kept fail cases"
    replay="$fuzz/.build/$target-failcases.log"
    ASAN_OPTIONS=detect_leaks=0 "$binary" "$fuzz/FailCases/$target"/* >"$replay" 2>&1 ||
        { tail -40 "$replay"; echo "== $target FAILED on a kept fail case"; exit 1; }
fi

# Leak detection is off: LeakSanitizer cannot see references Swift keeps with tag bits in an
# enum payload (a PropertyDescription case, say), and reports the objects behind them as leaked.
work="$fuzz/.build/corpus/$target"
crashes="$fuzz/.build/crashes/$target"
mkdir -p "$work" "$crashes"
echo "== $target: $runs runs"
log="$fuzz/.build/$target.log"
status=0
ASAN_OPTIONS=detect_leaks=0 "$binary" "$work" "$seeds" ${FUZZ_SEED:+-seed="$FUZZ_SEED"} -runs="$runs" -max_len="$max_len" -timeout=10 -rss_limit_mb=4096 \
    -detect_leaks=0 -artifact_prefix="$crashes/" -print_final_stats=1 >"$log" 2>&1 || status=$?
grep -E "^#[0-9]+\s+(INITED|DONE)|^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb|new_units_added)" "$log"
if [ $status -ne 0 ]; then
    grep -E -A30 "Fatal error|ERROR: |deadly signal" "$log" | head -60
    echo "== $target FAILED (exit $status); the input is in $crashes, the whole log in $log"
    exit 1
fi

# FuzzGenerate: the kept fail cases and the inputs libFuzzer kept (mutated models that reached
# new code) that generate without errors must also give code that compiles: typecheck them (a
# sample of the latter) with the root package's managedgen and runtime modules (built in debug
# at the root, as CI does first).
if [ "$target" = FuzzGenerate ]; then
    root="$fuzz/.."
    managedgen="$root/.build/debug/managedgen"
    [ -x "$managedgen" ] && [ -d "$root/.build/debug/Modules" ] || swift build --package-path "$root" >&2
    sample="$fuzz/.build/typecheck-sample"
    rm -rf "$sample" && mkdir -p "$sample"
    typechecked=0
    # The kept fail cases first (each a model whose generated code once did not compile), then
    # the inputs libFuzzer kept.
    kept=()
    [ -d "$fuzz/FailCases/$target" ] && kept=("$fuzz/FailCases/$target"/*)
    for path in "${kept[@]}" $(ls "$work" | sort | head -400 | sed "s|^|$work/|"); do
        [ $typechecked -lt "$(( ${FUZZ_TYPECHECK_SAMPLE:-20} + ${#kept[@]} ))" ] || break
        input=$(basename "$path")
        model="$sample/$input/Fuzz.xcdatamodel"
        mkdir -p "$model" && cp "$path" "$model/contents"
        "$managedgen" generate "$model" --output "$sample/$input/Generated" --human-output "$sample/$input/Generated" -q \
            >/dev/null 2>&1 || continue
        if ! swiftc -typecheck -wmo -swift-version 6 -warnings-as-errors -module-name Fuzz -I "$root/.build/debug/Modules" \
            -Xcc -fmodule-map-file="$root/.build/checkouts/GRDB.swift/Sources/GRDBSQLite/module.modulemap" \
            "$sample/$input/Generated"/*.swift >"$sample/$input/typecheck.log" 2>&1; then
            head -40 "$sample/$input/typecheck.log"
            cp "$path" "$crashes/typecheck-$input"
            echo "== $target FAILED: generated code that does not compile; the input is $crashes/typecheck-$input"
            exit 1
        fi
        typechecked=$((typechecked + 1))
    done
    echo "== $target: generated code of $typechecked accepted inputs typechecks"
fi
