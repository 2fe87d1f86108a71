#!/usr/bin/env bash
# Typechecks the generated code of every fixture and of every model root in ../shared/corpus
# (except the two broken on purpose) against the built ManagedObjects module, in Swift 6
# language mode with warnings as errors: one swiftc call per model, two at a time.
#
# With --snapshots, the corpus is typechecked once more with the option `snapshots` on (every
# class without subclasses gets a Snapshot struct), Xcode typing.
#
# Usage: Scripts/compile-generated.sh [--snapshots]   (from anywhere; needs ../shared/corpus beside the checkout)
set -eu
cd "$(dirname "$0")/.."
. Scripts/stable-environment.sh
snapshots=no
case "${1:-}" in
    --snapshots) snapshots=yes ;;
    "") ;;
    *) echo "usage: $0 [--snapshots]" >&2; exit 64 ;;
esac
swift build --build-tests
MANAGEDGEN_CORPUS=1 swift test --skip-build --filter 'ManagedGenCoreTests.CompileTests'
MANAGEDGEN_CORPUS=1 MANAGEDGEN_CORPUS_OPTIONALITY=strict swift test --skip-build --filter 'ManagedGenCoreTests.CompileTests/corpusCompiles'
if [ "$snapshots" = yes ]; then
    MANAGEDGEN_CORPUS=1 MANAGEDGEN_CORPUS_SNAPSHOTS=1 swift test --skip-build --filter 'ManagedGenCoreTests.CompileTests/corpusCompiles'
fi
