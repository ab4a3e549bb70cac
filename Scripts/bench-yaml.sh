#!/usr/bin/env bash
# YAML throughput: raw libyaml events against FlowYAML's tree with spans, on one generated file, in
# one run. Usage: Scripts/bench-yaml.sh [MEGABYTES]   (default 20)
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product flow-bench >/dev/null
exec "$(swift build -c release --show-bin-path)/flow-bench" "$@"
