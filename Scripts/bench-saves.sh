#!/usr/bin/env bash
# 2,000 saves into the local store (issue 30), against Python's sqlite3 doing the same transactions, as a
# ratio measured in one run (target <= 1.1x).
#
# flow's side is LocalBackend.createBookmark, what `save-bookmark` calls, 2,000 times in a release build
# (raindrop-bench's `saves` mode). Python's side opens a store flow made, so the schema is the same, sets
# the same pragmas, and makes each save as flow does: one `BEGIN IMMEDIATE` transaction of the same
# INSERT (the folded search columns computed as flow computes them), the UPDATE of its manual position and
# the SELECT of the row, through statements its sqlite3 module prepares once and reuses, as flow's
# connection now does. Each side times its saves only, not its start; rounds alternate the two, each on a
# new store, and the medians are compared.
# Usage: Scripts/bench-saves.sh [SAVES] [ROUNDS]; RAINDROP_BENCH=path measures another build.
source "$(dirname "$0")/bench-common.sh"
saves=${1:-2000}
rounds=${2:-7}

# RAINDROP_BENCH=path measures another build (an older commit's, say).
if [ -n "${RAINDROP_BENCH:-}" ]; then
  bench=$RAINDROP_BENCH
else
  release=(-c release --static-swift-stdlib --scratch-path .build-static)
  # raindrop-bench links FoundationNetworking (through FlyingFox), whose static archive asks for -lcurl.
  pkg-config --exists libcurl 2>/dev/null || apt-get install -y -q libcurl4-openssl-dev >/dev/null
  swift build "${release[@]}" --product raindrop-bench >/dev/null
  bench="$(swift build "${release[@]}" --show-bin-path)/raindrop-bench"
fi

cat >"$work/saves.py" <<'PY'
import json, sqlite3, sys, time, unicodedata
from urllib.parse import urlsplit

directory, count = sys.argv[1], int(sys.argv[2])
db = sqlite3.connect(f"{directory}/raindrop.sqlite", isolation_level=None, cached_statements=64)
db.execute("PRAGMA journal_mode = WAL")
db.execute("PRAGMA synchronous = NORMAL")
db.execute("PRAGMA foreign_keys = ON")
db.execute("PRAGMA busy_timeout = 10000")

def fold(text):
    # Case and accents, as flow folds them (SearchFolding): decomposed, marks dropped, lower-cased.
    if text.isascii():
        return text.lower()
    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c)).lower()

def domain(link):
    host = (urlsplit(link).hostname or "").lower()
    return host[4:] if host.startswith("www.") else host

def comparable(link):
    parts = urlsplit(link.strip())
    path = parts.path.rstrip("/")
    return domain(link) + path + (f"?{parts.query}" if parts.query else "")

def tag_list(tags):
    result, seen = [], set()
    for tag in tags:
        tag = tag.strip()
        if tag and tag.lower() not in seen:
            seen.add(tag.lower())
            result.append(tag)
    return result

insert = """
INSERT INTO bookmarks (link, link_key, title, excerpt, note, type, tags, important, collection, cover,
  domain, sort, created, last_update, title_fold, excerpt_fold, note_fold, link_fold, domain_fold, tags_fold)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, '', ?, 0, ?, ?, ?, ?, ?, ?, ?, ?)
"""
select = ("SELECT id, link, title, excerpt, note, type, tags, important, collection, cover, domain, sort, "
          "created, last_update FROM bookmarks WHERE id = ?")
started = time.perf_counter()
for index in range(count):
    link = f"https://save.example/pages/{index}".strip()
    title = f"Saved page {index} about a café".strip()
    tags = tag_list(["bench", "Café"])
    site = domain(link)
    now = int(time.time() * 1000)
    folded_tags = ("\x1f" + "\x1f".join(fold(t) for t in tags) + "\x1f") if tags else ""
    db.execute("BEGIN IMMEDIATE")
    db.execute(insert, (link, comparable(link), title, "", "", "link", json.dumps(tags, ensure_ascii=False,
        separators=(",", ":")), 0, -1, site, now, now, fold(title), "", "", fold(link), fold(site), folded_tags))
    rowid = db.execute("SELECT last_insert_rowid()").fetchone()[0]
    db.execute("UPDATE bookmarks SET sort = id WHERE id = ?", (rowid,))
    row = db.execute(select, (rowid,)).fetchone()
    db.execute("COMMIT")
print(time.perf_counter() - started)
PY

flow_times=()
python_times=()
for round in $(seq "$rounds"); do
  mkdir -p "$work/flow-$round" "$work/python-$round"
  flow_times+=("$("$bench" saves "$work/flow-$round" "$saves")")
  # A store flow made (no saves), so that Python writes into the same schema.
  "$bench" saves "$work/python-$round" 0 >/dev/null
  python_times+=("$(python3 "$work/saves.py" "$work/python-$round" "$saves")")
  rm -rf "$work/flow-$round" "$work/python-$round"
done

python3 - "$saves" "${flow_times[*]}" "${python_times[*]}" <<'PY'
import statistics, sys
saves = int(sys.argv[1])
flow = [float(t) for t in sys.argv[2].split()]
python = [float(t) for t in sys.argv[3].split()]
f, p = statistics.median(flow), statistics.median(python)
print(f"{saves} saves into the local store, median of {len(flow)} rounds")
print(f"  flow (LocalBackend)   {f*1000:8.1f} ms   {f/saves*1e6:6.1f} µs a save   (min {min(flow)*1000:.1f} ms)")
print(f"  Python's sqlite3      {p*1000:8.1f} ms   {p/saves*1e6:6.1f} µs a save   (min {min(python)*1000:.1f} ms)")
print(f"  ratio                 {f/p:5.2f}x   (min {min(flow)/min(python):5.2f}x; target <= 1.1x)")
PY
