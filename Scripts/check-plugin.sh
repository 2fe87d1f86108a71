#!/usr/bin/env bash
# Checks the build plugin as a user sees it, on the Examples package's DogWalk (built once already):
# - a second build with nothing changed does not run the generator;
# - touching the model runs it again;
# - a broken model fails the build with its diagnostic at the model file's line and column.
# The model file is restored afterwards, whatever happens.
set -euo pipefail
cd "$(dirname "$0")/.."
examples=Examples
model=$examples/Sources/DogWalk/DogWalk.xcdatamodeld/DogWalk.xcdatamodel/contents
marker="Generating managed objects for DogWalk.xcdatamodeld"
fail() { echo "check-plugin: $*" >&2; exit 1; }

build() { swift build --package-path "$examples" --target DogWalk 2>&1; }

build >/dev/null
output=$(build)
if grep -q "$marker" <<<"$output"; then
    fail "an unchanged model was generated again"
fi
echo "unchanged model: generator not run"

touch "$model"
output=$(build)
grep -q "$marker" <<<"$output" || fail "a touched model was not regenerated"
echo "touched model: regenerated"

backup=$(mktemp)
cp "$model" "$backup"
trap 'cp "$backup" "$model"; rm -f "$backup"' EXIT
sed -i 's/destinationEntity="Dog" inverseName="walks"/destinationEntity="Dog" inverseName="strolls"/' "$model"
if output=$(build); then
    fail "a broken model built"
fi
grep -E "DogWalk.xcdatamodel/contents:[0-9]+:[0-9]+: error: " <<<"$output" \
    || fail "the build output has no diagnostic at the model's file and line: $output"
echo "broken model: build failed with the diagnostic above"
