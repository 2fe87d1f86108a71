#!/usr/bin/env bash
# Typechecks the generated code of every fixture and of every model root in ../shared/corpus
# (except the two broken on purpose) against the built ManagedObjects module, in Swift 6
# language mode with warnings as errors: one swiftc call per model, two at a time.
#
# Usage: Scripts/compile-generated.sh   (from anywhere; needs ../shared/corpus beside the checkout)
set -eu
cd "$(dirname "$0")/.."
swift build --build-tests
MANAGEDGEN_CORPUS=1 swift test --skip-build --filter 'ManagedGenCoreTests.CompileTests'
MANAGEDGEN_CORPUS=1 MANAGEDGEN_CORPUS_OPTIONALITY=strict swift test --skip-build --filter 'ManagedGenCoreTests.CompileTests/corpusCompiles'
