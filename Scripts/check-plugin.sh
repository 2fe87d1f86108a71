#!/usr/bin/env bash
# Checks the build plugin as a user sees it, on the Examples package's DogWalk (built once already):
# - a second build with nothing changed does not run the generator;
# - touching the model runs it again;
# - a broken model fails the build with its diagnostic at the model file's line and column.
# - the executable the plugins run (ManagedGenPluginTool) depends on no runtime module, GRDB or
#   other store code: a package that uses the plugin builds the generator only.
# The model file is restored afterwards, whatever happens.
set -euo pipefail
cd "$(dirname "$0")/.."
. Scripts/stable-environment.sh
examples=Examples
model=$examples/Sources/DogWalk/DogWalk.xcdatamodeld/DogWalk.xcdatamodel/contents
marker="Generating managed objects for DogWalk.xcdatamodeld"
fail() { echo "check-plugin: $*" >&2; exit 1; }

build() { swift build --package-path "$examples" --target DogWalk 2>&1; }

# Everything the plugins' tool builds, from the manifest (python3: Swift's toolchain images have it).
plugin_tool_modules=$(swift package describe --type json | python3 -c '
import json, sys
targets = {t["name"]: t for t in json.load(sys.stdin)["targets"]}
seen, todo = set(), ["ManagedGenPluginTool"]
while todo:
    name = todo.pop()
    if name in seen: continue
    seen.add(name)
    target = targets.get(name, {})
    todo += target.get("target_dependencies", [])
    seen.update(target.get("product_dependencies", []))
print(" ".join(sorted(seen)))')
for heavy in ManagedObjects ModelFileLoading StoreTools GRDB PostgresNIO; do
    if grep -qw "$heavy" <<<"$plugin_tool_modules"; then
        fail "the plugins' tool depends on $heavy: $plugin_tool_modules"
    fi
done
echo "plugin tool builds: $plugin_tool_modules"

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
