#!/usr/bin/env bash
# assay store export --format openmetrics, read by the real consumers: the
# OpenMetrics and the Prometheus text parsers of prometheus_client
# (Debian's python3-prometheus-client), node_exporter's textfile collector
# (prometheus-node-exporter) scraping the -o file, and a Pushgateway
# (prometheus-pushgateway) that --push sent it to. The values are checked
# against what the store holds: newest value and points, change points and
# regression (the RCCL CI history's BF16 series drops at c30; a second
# series drops and recovers), and the gate verdict of a run's failed case.
#   openmetrics.sh ASSAY
set -uo pipefail
assay=$1
src=${ASSAY_SOURCE_DIR:?}
T=$(mktemp -d /tmp/assay-notify-om.XXXXXX)
# shellcheck source=../lib/store.sh
. "$src/tests/lib/store.sh"
# shellcheck source=lib.sh
. "$src/tests/notify/lib.sh"
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done; store_cleanup; rm -rf "$T"' EXIT
store_init "$T"
cd "$T" || exit 1
py=/usr/bin/python3
for need in prometheus-node-exporter prometheus-pushgateway curl; do
	command -v "$need" >/dev/null || { echo "SKIP: $need is not installed (scripts/deps.sh check)"; exit 77; }
done
$py -c 'import prometheus_client' 2>/dev/null || { echo "SKIP: python3-prometheus-client is not installed"; exit 77; }

free_port() { $py -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_http() { # URL: until it answers (60 s)
	for _ in $(seq 1 600); do curl -fs "$1" >/dev/null 2>&1 && return 0; sleep 0.1; done
	fail "$1 never answered"
}

S=$(store_new om) || exit 1
$py - >recover.jsonl <<'PY'
import json
for i in range(60):
    v = (1000.0 if i < 20 or i >= 40 else 900.0) + [0.0, 1.5, -1.0, 0.5, -1.5, 1.0][i % 6]
    print(json.dumps({"run_id": 7000 + i, "timestamp": "2026-09-%02dT%02d:00:00Z" % (1 + i // 24, i % 24),
                      "commit": "r%02d" % i, "workload": "recover-bench", "scale": "1x8",
                      "precision": "BF16", "tflops_per_gpu": None, "tokens_per_sec_per_gpu": v,
                      "metric_value": None, "status": "pass", "cluster": "mi300x-a"}))
PY
"$assay" store ingest --store "$S" recover.jsonl "$src/tests/fixtures/ingest/rccl_ci-history.jsonl" >/dev/null ||
	fail "ingest"
(cd "$src" && "$assay" run --store "$S" --out "$T/out" --revision r1 --quiet configs/examples/replay-training.json) \
	>/dev/null 2>&1
[ $? = 1 ] || fail "the replayed training run: one case fails a gate (exit 1)"

"$assay" store export --store "$S" --format openmetrics >all.prom || fail "export"
$py - all.prom <<'PY' || fail "the exported metrics"
import sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families as openmetrics
from prometheus_client.parser import text_string_to_metric_families as prometheus
text = open(sys.argv[1]).read()
assert text.endswith("# EOF\n")
fams = {f.name: f for f in openmetrics(text)}       # strict: raises on any fault
assert {f.name for f in prometheus(text)} == set(fams)  # what Prometheus' own parser reads
assert all(f.type == "gauge" for f in fams.values())
def one(name, **labels):
    got = [s for s in fams[name].samples if all(s.labels.get(k) == v for k, v in labels.items())]
    assert len(got) == 1, (name, labels, got)
    assert got[0].timestamp is None, "no timestamps: the textfile collector refuses them"
    return got[0].value
bf16 = dict(workload="llama3-70b-pretrain", precision="bf16", cluster="mi300x-a", scale="2x8",
            metric="tokens_per_sec_per_gpu", statistic="value", direction="higher")
assert one("assay_series_points", **bf16) == 40
assert one("assay_series_change_points", **bf16) == 1
assert one("assay_series_regressed", **bf16) == 1
assert abs(one("assay_series_last_change_ratio", **bf16) + 0.0519) < 0.0005
s = [x for x in fams["assay_series_value"].samples if x.labels.get("precision") == "bf16" and x.labels.get("scale") == "2x8"][0]
assert len(s.labels["series_key"]) == 64 and s.labels["series_key"].startswith("b7bca5ca73da")
rec = dict(workload="recover-bench")
assert one("assay_series_change_points", **rec) == 2 and one("assay_series_regressed", **rec) == 0
assert one("assay_series_value", **rec) == 1001.0 and one("assay_series_points", **rec) == 60
assert one("assay_series_last_timestamp_seconds", **rec) == 1788433200  # 2026-09-03T11:00:00Z
gates = fams["assay_series_gate_failed"].samples
assert any(g.value == 1 for g in gates) and any(g.value == 0 for g in gates), gates
print(f"ok: {len(fams)} families, {len(fams['assay_series_value'].samples)} series")
PY

# -o FILE for node_exporter's textfile collector: written whole, then renamed.
mkdir textfile
"$assay" store export --store "$S" --format openmetrics --match workload=recover-bench -o textfile/assay.prom 2>o.err ||
	fail "export -o: $(cat o.err)"
grep -qx 'textfile/assay.prom: 1 series' o.err || fail "export -o: $(cat o.err)"
[ "$(ls textfile)" = assay.prom ] || fail "export -o left $(ls textfile)"
port=$(free_port)
prometheus-node-exporter --web.listen-address=127.0.0.1:"$port" --collector.disable-defaults \
	--collector.textfile --collector.textfile.directory="$T/textfile" >node.log 2>&1 &
pids+=($!)
wait_http "http://127.0.0.1:$port/metrics"
curl -fs "http://127.0.0.1:$port/metrics" >node.metrics
grep -q '^node_textfile_scrape_error 0$' node.metrics || fail "the textfile collector refused it: $(grep textfile node.metrics)"
grep -Eq '^assay_series_change_points\{.*workload="recover-bench".*\} 2$' node.metrics ||
	fail "node_exporter does not serve the series: $(grep assay_ node.metrics | head -3)"

# --push to a Pushgateway.
port=$(free_port)
prometheus-pushgateway --web.listen-address=127.0.0.1:"$port" >push.log 2>&1 &
pids+=($!)
wait_http "http://127.0.0.1:$port/-/ready"
"$assay" store export --store "$S" --format openmetrics --push "http://127.0.0.1:$port/metrics/job/assay" \
	>push.out 2>push.err || fail "push: $(cat push.err)"
[ ! -s push.out ] || fail "--push printed the metrics too"
grep -Eq '^pushed [0-9]+ series to the Pushgateway \(HTTP 200' push.err || fail "push: $(cat push.err)"
curl -fs "http://127.0.0.1:$port/metrics" >gateway.metrics
grep -Eq '^assay_series_regressed\{.*job="assay".*precision="bf16".*scale="2x8".*\} 1$' gateway.metrics ||
	fail "the Pushgateway does not hold the series: $(grep assay_series_regressed gateway.metrics | head -3)"
echo "ok"
