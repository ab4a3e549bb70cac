#!/usr/bin/env bash
# Formats every Swift file in place with the toolchain's swift-format, then lints what is left.
set -euo pipefail
cd "$(dirname "$0")/.."
git ls-files -z '*.swift' | xargs -0 swift format format --in-place --configuration .swift-format
git ls-files -z '*.swift' | xargs -0 swift format lint --configuration .swift-format
