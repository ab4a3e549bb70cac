#!/usr/bin/env bash
# Next-fire computations per second (issue 8: at least 1,000,000 for typical expressions), against two
# references measured in the same run: croniter (PyPI) on the same expressions from the same starting
# points, and the minute-by-minute search over flow's own matcher (inside cron-bench).
# Usage: Scripts/bench-cron.sh [SECONDS-PER-MEASUREMENT]   (default 1)
set -euo pipefail
cd "$(dirname "$0")/.."
budget="${1:-1}"
python3 -c 'import croniter' 2>/dev/null || pip install -q croniter >/dev/null
swift build -c release --product cron-bench >/dev/null

croniter_rate=$(python3 - "$budget" <<'PY'
import sys, time
from datetime import datetime, timezone
from croniter import croniter
budget = float(sys.argv[1])
typical = ["*/15 * * * *", "0 9 * * MON-FRI", "30 2 * * *", "0 0 1 * *", "0 */6 * * *", "5 4 * * sun",
           "0 9 1 * MON", "@daily", "0 8-18/2 * * 1-5", "15 10 * * *"]
base = 1_795_000_000
starts = [datetime.fromtimestamp(base + i * 31_657, timezone.utc) for i in range(997)]
# One iterator per expression, parsed once and moved to each start, as flow's Schedule is parsed once.
iterators = [croniter(expression, starts[0]) for expression in typical]
calls, began = 0, time.perf_counter()
while time.perf_counter() - began < budget:
    for _ in range(100):
        iterator = iterators[calls % len(typical)]
        iterator.set_current(starts[calls % len(starts)], force=True)
        iterator.get_next(float)
        calls += 1
print(calls / (time.perf_counter() - began))
PY
)
exec "$(swift build -c release --show-bin-path)/cron-bench" "$budget" "$croniter_rate"
