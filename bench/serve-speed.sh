#!/usr/bin/env bash
# assay serve against `python3 -m http.server` serving the same pages
# pre-rendered as static files, side by side in one run, release build, on a
# store of SERIES series x 200 points (default 1,000; bench/gen-rows.py):
#   overview  requests/s of GET / (the first page: 100 series) at 32
#             concurrent clients (ab -c 32, a new connection per request)
#   series    p99 latency of GET /series/KEY (200 points) at 32 clients
#   RSS       the server's resident set after 1,000 requests and after
#             100,000 (overview, series, JSON and the ETag poll in turn)
#   cold      one request each for pages not rendered before (the cache
#             holds the current generation's pages): overview, series page
# Targets (issue 34): overview req/s >= the static baseline's; series p99
# <= 2x the baseline's; RSS after 100,000 within 10% of after 1,000.
#   bench/serve-speed.sh [SERIES] [REQUESTS]
set -euo pipefail
cd "$(dirname "$0")/.."
nseries=${1:-1000}
requests=${2:-5000}
build=build/bench-serve
work=$(mktemp -d /tmp/assay-serve-speed.XXXXXX)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"' EXIT
command -v ab >/dev/null || { echo "serve-speed: needs ab (apt-get install apache2-utils)" >&2; exit 2; }

cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DASSAY_TESTS=OFF >/dev/null
cmake --build "$build" -j 2 --target assay_cli >/dev/null
assay=$build/bin/assay

python3 bench/gen-rows.py "$work/rows" "$nseries" 200 4 1 >/dev/null
"$assay" store ingest --store "$work/s.db" "$work"/rows/*.ndjson >/dev/null
"$assay" serve --store "$work/s.db" --listen 127.0.0.1:0 --no-log --max-connections 64 \
	>"$work/serve.out" 2>"$work/serve.err" &
spid=$!
pids+=("$spid")
for _ in $(seq 1 300); do grep -q '^serving' "$work/serve.out" && break; sleep 0.1; done
U=$(sed -n 's|^serving .* at \(http://[0-9.:]*\)/.*|\1|p' "$work/serve.out")
key=$("$assay" store series --store "$work/s.db" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["series_key"])')

# Cold renders: a page of this generation not asked for before.
cold() { curl -s -o /dev/null -w '%{time_total}' "$1"; }
cold_over=$(cold "$U/?per=100&sort=label")
cold_series=$(cold "$U/series/$key?last=200")

mkdir -p "$work/static"
curl -s "$U/" >"$work/static/overview.html"
curl -s "$U/series/$key" >"$work/static/series.html"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server --bind 127.0.0.1 --directory "$work/static" "$port" >/dev/null 2>&1 &
pids+=("$!")
P=http://127.0.0.1:$port
for _ in $(seq 1 300); do curl -s -o /dev/null "$P/overview.html" && break; sleep 0.1; done

rps() { ab -q -n "$requests" -c 32 "$1" 2>/dev/null | awk '/^Requests per second/ {print $4}'; }
p99() { ab -q -n "$requests" -c 32 "$1" 2>/dev/null | awk '$1 == "99%" {print $2}'; }
rss() { awk '/^VmRSS/ {print $2}' "/proc/$spid/status"; }

echo "serve-speed: $(nproc) cores, $nseries series x 200 points, $requests requests per measure, 32 clients"
echo "  overview page $(wc -c <"$work/static/overview.html") bytes, series page $(wc -c <"$work/static/series.html") bytes"
printf '%-28s %14s %14s\n' measure "assay serve" "http.server"
printf '%-28s %14s %14s\n' "overview req/s" "$(rps "$U/")" "$(rps "$P/overview.html")"
printf '%-28s %14s %14s\n' "series p99 ms" "$(p99 "$U/series/$key")" "$(p99 "$P/series.html")"
printf '%-28s %14s\n' "cold overview render s" "$cold_over"
printf '%-28s %14s\n' "cold series render s" "$cold_series"

# RSS: 1,000 requests, then up to 100,000 in all, across the routes.
mix() { # N: N requests, a quarter to each route
	local n=$(($1 / 4))
	for u in "$U/" "$U/series/$key" "$U/api/v1/series/$key" "$U/api/v1/state"; do
		ab -q -n "$n" -c 32 "$u" >/dev/null 2>&1
	done
}
mix 1000
r1=$(rss)
mix 99000
r2=$(rss)
printf '%-28s %14s\n' "RSS after 1,000 (KiB)" "$r1"
printf '%-28s %14s  (%+.1f%%)\n' "RSS after 100,000 (KiB)" "$r2" "$(echo "$r1 $r2" | awk '{print ($2 - $1) * 100 / $1}')"
