#!/usr/bin/env bash
# The runtime needs no libxml2 (issue 13): ManagedObjects' dependency closure within the package
# holds neither the libxml2 module nor the model reader, and a package that depends on
# ManagedObjects alone, and on CoreData with the package's traits off (Tests/LeanRuntimeConsumer),
# builds and runs with pkg-config unable to find libxml-2.0, so libxml2's headers are out of reach.
set -euo pipefail
cd "$(dirname "$0")/.."
. Scripts/stable-environment.sh

description=$(mktemp)
trap 'rm -f "$description"' EXIT
swift package describe --type json >"$description"
python3 - "$description" <<'PYTHON'
import json, sys
targets = {t["name"]: t for t in json.load(open(sys.argv[1]))["targets"]}
closure, pending = set(), ["ManagedObjects"]
while pending:
    name = pending.pop()
    if name in closure or name not in targets:
        continue
    closure.add(name)
    pending += targets[name].get("target_dependencies", [])
forbidden = closure & {"CLibXML2", "DataModelReader"}
print("ManagedObjects depends on the package's targets:", ", ".join(sorted(closure - {"ManagedObjects"})))
if forbidden:
    sys.exit(f"error: ManagedObjects' dependency closure holds {', '.join(sorted(forbidden))}")
PYTHON

no_pkg_config=$(mktemp -d)
if PKG_CONFIG_PATH= PKG_CONFIG_LIBDIR="$no_pkg_config" pkg-config --exists libxml-2.0 2>/dev/null; then
    echo "error: pkg-config still finds libxml-2.0; the check would prove nothing"; exit 1
fi
PKG_CONFIG_PATH= PKG_CONFIG_LIBDIR="$no_pkg_config" swift build --package-path Tests/LeanRuntimeConsumer
output=$(PKG_CONFIG_PATH= PKG_CONFIG_LIBDIR="$no_pkg_config" swift run --skip-build --package-path Tests/LeanRuntimeConsumer LeanRuntimeConsumer)
echo "$output"
grep -qx "Fetched note 4, note 5 from SQLite with the runtime alone" <<<"$output" \
    || { echo "error: the runtime-only package did not fetch what it saved"; exit 1; }
output=$(PKG_CONFIG_PATH= PKG_CONFIG_LIBDIR="$no_pkg_config" swift run --skip-build --package-path Tests/LeanRuntimeConsumer LeanCoreDataConsumer)
rmdir "$no_pkg_config"
echo "$output"
grep -qx "CoreData without model files fetched 1 note" <<<"$output" \
    && grep -q "this build of CoreData reads no model files" <<<"$output" \
    || { echo "error: CoreData without the ModelFiles trait did not run as expected"; exit 1; }
