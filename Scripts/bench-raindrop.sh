#!/usr/bin/env bash
# Counts requests at the Raindrop stand-in: tagging 1,000 bookmarks one by one against the bulk endpoint, and
# 500 requests against a scaled-down rate window (429s received, achieved fraction of the allowed rate).
# Usage: Scripts/bench-raindrop.sh [--real-clock]
set -euo pipefail
cd "$(dirname "$0")/.."
export no_proxy=127.0.0.1,localhost NO_PROXY=127.0.0.1,localhost
swift build --product raindrop-bench >&2
"$(swift build --show-bin-path)/raindrop-bench" "$@"
