#!/usr/bin/env bash
# Runs `managedgen validate` on every model root of the shared corpus and fails unless exactly
# the models its README lists as broken fail (each of those must report an error diagnostic).
#
# Usage: Scripts/check-corpus.sh <path to managedgen> <corpus dir>
# A model root is a .xcdatamodeld bundle, or a .xcdatamodel folder that is not inside one.
set -euo pipefail

if [[ $# -ne 2 ]]; then
    echo "usage: $0 <managedgen binary> <corpus dir>" >&2
    exit 2
fi
managedgen=$1
corpus=${2%/}
[[ -x "$managedgen" ]] || { echo "error: $managedgen is not an executable" >&2; exit 2; }
[[ -f "$corpus/README.md" ]] || { echo "error: $corpus/README.md not found; is this the corpus?" >&2; exit 2; }

# The broken models: the first column of the README's table rows that name a model folder.
expected_broken=$(sed -n 's/^| *\([^ |]*\.xcdatamodeld\{0,1\}\) *|.*/\1/p' "$corpus/README.md" | sort)
if [[ -z "$expected_broken" ]]; then
    echo "error: no broken models listed in $corpus/README.md" >&2
    exit 2
fi

roots=$(cd "$corpus" && {
    find . -type d -name '*.xcdatamodeld' -prune -print
    find . -type d -name '*.xcdatamodeld' -prune -o -type d -name '*.xcdatamodel' -prune -print
} | sed 's|^\./||' | LC_ALL=C sort)

passed=0
failed_as_expected=0
problems=()
diagnostics_file=$(mktemp)
trap 'rm -f "$diagnostics_file"' EXIT

while IFS= read -r root; do
    [[ -n "$root" ]] || continue
    if "$managedgen" validate --quiet "$corpus/$root" 2>"$diagnostics_file" >/dev/null; then
        status=0
    else
        status=$?
    fi
    if grep -Fxq -- "$root" <<<"$expected_broken"; then
        if [[ $status -eq 1 ]] && grep -q ': error: ' "$diagnostics_file"; then
            failed_as_expected=$((failed_as_expected + 1))
        else
            problems+=("$root: expected to fail with an error diagnostic, but exit status was $status")
        fi
    elif [[ $status -eq 0 ]]; then
        passed=$((passed + 1))
    else
        problems+=("$root: exit status $status"$'\n'"$(sed 's/^/    /' "$diagnostics_file")")
    fi
done <<<"$roots"

expected_count=$(wc -l <<<"$expected_broken")
if [[ $failed_as_expected -ne $expected_count ]]; then
    problems+=("only $failed_as_expected of the $expected_count broken models in the README were found")
fi

if [[ ${#problems[@]} -gt 0 ]]; then
    printf 'corpus: %s\n' "${problems[@]}" >&2
    echo "corpus: $passed passed, $failed_as_expected failed as expected, ${#problems[@]} unexpected" >&2
    exit 1
fi
echo "corpus: $passed passed, $failed_as_expected failed as expected"
