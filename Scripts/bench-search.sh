#!/usr/bin/env bash
# Local-store search at scale (issue 30), as ratios measured in one run:
#   1. `flow run` of a `get-bookmarks` search (case- and accent-insensitive: "cafe" finds "Café") over
#      100,000 bookmarks against the sqlite3 shell doing the same with `LIKE` (ASCII case only) on the same
#      rows: the matches counted and the newest 25 read (target <= 2x);
#   2. the same with `sort-by: title-a-z`, for which the titles of the matches are sorted in Swift;
#   3. FTS5 (`unicode61 remove_diacritics 2`) in the same shell, for the record: what an index of words
#      would give, though it finds words, not the substrings Raindrop's search finds;
#   4. flow's peak memory (max RSS) searching 10,000 and 100,000 bookmarks: flat in the number of rows.
# The bookmarks are generated here, as a store an older flow (schema version 2) wrote, so that the first
# open also measures the migration that folds them. Usage: Scripts/bench-search.sh [--dynamic] [ROWS];
# FLOW=path measures another build.
# Installs hyperfine (apt) when missing; needs python3 and the sqlite3 shell.
source "$(dirname "$0")/bench-common.sh"
dynamic=""
if [ "${1:-}" = --dynamic ]; then dynamic=--dynamic; shift; fi
rows=${1:-100000}
command -v sqlite3 >/dev/null || apt-get install -y -q sqlite3 >/dev/null
# FLOW=path measures another build (an older commit's, say).
if [ -n "${FLOW:-}" ]; then flow=$FLOW; else build_flow $dynamic; fi

cd "$work"
export HOME="$work" XDG_CONFIG_HOME="$work/config" XDG_STATE_HOME="$work/state"

# A store as flow wrote it before the folded columns (schema 2): ROWS bookmarks, one in 100 about a café
# (half of them spelled "Café", half "cafe", in the title, a tag, the excerpt or the link).
make_store() {
  mkdir -p "$1/flow"
  python3 - "$1/flow/raindrop.sqlite" "$2" <<'PY'
import json, random, sqlite3, sys
path, count = sys.argv[1], int(sys.argv[2])
random.seed(30)
db = sqlite3.connect(path, isolation_level=None)
db.executescript("""
PRAGMA journal_mode = WAL;
CREATE TABLE collections (id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT NOT NULL, parent INTEGER,
  created INTEGER NOT NULL, last_update INTEGER NOT NULL);
CREATE TABLE bookmarks (id INTEGER PRIMARY KEY AUTOINCREMENT, link TEXT NOT NULL, link_key TEXT NOT NULL,
  title TEXT NOT NULL, excerpt TEXT NOT NULL DEFAULT '', note TEXT NOT NULL DEFAULT '',
  type TEXT NOT NULL DEFAULT 'link', tags TEXT NOT NULL DEFAULT '[]', important INTEGER NOT NULL DEFAULT 0,
  collection INTEGER NOT NULL, cover TEXT NOT NULL DEFAULT '', domain TEXT NOT NULL, sort INTEGER NOT NULL,
  created INTEGER NOT NULL, last_update INTEGER NOT NULL);
CREATE INDEX bookmarks_by_collection ON bookmarks(collection);
CREATE INDEX bookmarks_by_link ON bookmarks(link_key);
CREATE INDEX bookmarks_by_created ON bookmarks(created);
CREATE INDEX bookmarks_by_sort ON bookmarks(sort);
PRAGMA user_version = 2;
""")
words = ("swift linux shortcut workflow automation über naïve résumé piñata garçon zoë smörgåsbord "
         "release notes guide tutorial reference kernel compiler database index search yaml").split()
sites = ["swift.org", "kernel.org", "sqlite.org", "example.com", "lwn.net", "news.ycombinator.com"]
db.execute("BEGIN")
for i in range(1, count + 1):
    title = " ".join(random.choice(words).capitalize() for _ in range(5))
    excerpt = " ".join(random.choice(words) for _ in range(20))
    tags = [random.choice(words) for _ in range(random.randint(0, 3))]
    site = random.choice(sites)
    link = f"https://{site}/{i}/{random.choice(words)}"
    if i % 100 == 0:
        cafe = "Café" if i % 200 == 0 else "cafe"
        place = (i // 100) % 4
        if place == 0: title = f"{cafe} {title}"
        elif place == 1: tags.append(cafe.lower())
        elif place == 2: excerpt = f"{excerpt} {cafe}s"
        else: link = f"https://{site}/{cafe}-{i}"
    created = 1_700_000_000_000 + i * 60_000
    db.execute(
        "INSERT INTO bookmarks (link, link_key, title, excerpt, tags, collection, domain, sort, created, last_update)"
        " VALUES (?, ?, ?, ?, ?, -1, ?, ?, ?, ?)",
        (link, link.split("://")[1], title, excerpt, json.dumps(tags, ensure_ascii=False), site, i, created, created))
db.execute("COMMIT")
PY
}

cat >search.yml <<'YAML'
flow: 1
name: Cafés
steps:
  - get-bookmarks:
      search-text: cafe
  - count: ${previous}
  - show: "${previous} bookmarks"
YAML
sed 's/search-text: cafe/search-text: cafe\n      sort-by: title-a-z/' search.yml >titles.yml

# The reference: the same rows, the same places, LIKE (which folds ASCII case only), the matches counted
# and the newest 25 read.
like() {
  local places="title LIKE '%cafe%' OR tags LIKE '%cafe%' OR excerpt LIKE '%cafe%' OR note LIKE '%cafe%'
    OR link LIKE '%cafe%' OR domain LIKE '%cafe%'"
  echo "SELECT COUNT(*) FROM bookmarks WHERE collection != -99 AND ($places);
    SELECT id, link, title, excerpt, note, type, tags, important, collection, cover, domain, sort, created,
      last_update FROM bookmarks WHERE collection != -99 AND ($places) ORDER BY created DESC, id DESC LIMIT 25;"
}

flow_search() { XDG_DATA_HOME="$1" "$flow" run "$2" --backend local --no-history; }

data="$work/data-$rows"
make_store "$data" "$rows"
store="$data/flow/raindrop.sqlite"
start=$(date +%s.%N)
first=$(flow_search "$data" search.yml)
echo "first search, migrating $rows bookmarks to folded columns: $(python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.2f}')" "$start" "$(date +%s.%N)") s ($first)"
liked=$(sqlite3 "$store" "$(like)" | sed -n 1p)
echo "matches: flow $first; LIKE finds $liked (it misses the accented ones)"

# Alternates the commands in short rounds, so that a burst of load on a shared machine lands on all of
# them alike, and reports medians and ratios to the first.
compare() {
  local name=$1 target=$2
  shift 2
  for round in $(seq 8); do
    hyperfine -N --warmup 1 --runs 5 --export-json "round-$round.json" "$@" >/dev/null 2>&1
  done
  python3 - "$name" "$target" round-*.json <<'PY'
import json, statistics, sys
name, target, files = sys.argv[1], sys.argv[2], sys.argv[3:]
times, names = {}, []
for file in files:
    for result in json.load(open(file))["results"]:
        if result["command"] not in times: names.append(result["command"])
        times.setdefault(result["command"], []).extend(result["times"])
reference = statistics.median(times[names[0]])
print(name)
for command in names:
    median = statistics.median(times[command])
    label = command if len(command) < 70 else command[:67] + "..."
    print(f"  {median*1000:8.2f} ms  {median/reference:5.2f}x  {label}")
print(f"  target: flow <= {target}x the first")
PY
  rm -f round-*.json
}

# hyperfine runs commands without a shell; the sqlite3 shell reads the statements from a file.
like >like.sql
sqlite3 "$store" "CREATE VIRTUAL TABLE words USING fts5(title, tags, excerpt, note, link, domain,
  tokenize = 'unicode61 remove_diacritics 2');
  INSERT INTO words(rowid, title, tags, excerpt, note, link, domain)
    SELECT id, title, tags, excerpt, note, link, domain FROM bookmarks;"
cat >fts.sql <<'SQL'
SELECT COUNT(*) FROM words WHERE words MATCH 'cafe*';
SELECT b.id, b.link, b.title FROM words JOIN bookmarks b ON b.id = words.rowid WHERE words MATCH 'cafe*'
  ORDER BY b.created DESC, b.id DESC LIMIT 25;
SQL
export XDG_DATA_HOME="$data"
echo
compare "search over $rows bookmarks, newest 25 (flow against the sqlite3 shell's LIKE)" 2 \
  "sqlite3 -init like.sql $store .quit" \
  "$flow run search.yml --backend local --no-history" \
  "$flow run titles.yml --backend local --no-history" \
  "sqlite3 -init fts.sql $store .quit"
sqlite3 "$store" "DROP TABLE words"

echo
echo "peak memory of the search (max RSS):"
for count in 10000 "$rows"; do
  dir="$work/memory-$count"
  if [ "$count" = "$rows" ]; then dir=$data; else make_store "$dir" "$count"; flow_search "$dir" search.yml >/dev/null; fi
  for workflow in search.yml titles.yml; do
    XDG_DATA_HOME="$dir" /usr/bin/time -f '%M' -o rss "$flow" run "$workflow" --backend local --no-history >/dev/null
    echo "  $count bookmarks, $workflow: $(cat rss) KiB"
  done
done
