#!/usr/bin/env bash
# `assay import cvs --cluster` on ROCm/cvs dddd914's vLLM distributed config
# (tests/fixtures/inference/cvs/SOURCE.md, the _filled copy: TP 8, PP 2,
# two nodes) runs on two loopback ssh nodes with its imported server argv:
# each rank's vllm serve gets --nnodes 2, --master-addr and --master-port as
# the config gives them, --node-rank from the launcher's NODE_RANK, and
# --headless on rank 1 only (vllm_job.py, _server_argv). Changed for the
# test only: the hosts (the nodes instead of the cluster file's),
# master_addr (node 1, as the config must name rank 0), the port, `vllm` (a
# stand-in: `serve` runs server.py with the rank's flags, `bench serve` asks
# the head's /health at --base-url and copies the result fixture made from
# vLLM's serve.py) and no container. CVS's shipped distributed thresholds
# (every value 0, tests/fixtures/inference/cvs) fail the latencies (exit 1).
. "$(dirname "$0")/nodes.sh" "$@"
nodes_up 2
cd "$ASSAY_SOURCE_DIR"
"$ASSAY" import cvs --user alice --cluster tests/fixtures/cli/import/cluster.json \
  --out "$T/imported.json" tests/fixtures/inference/cvs/mi300x_vllm_llama33-70b_fp8_distributed_filled.json 2>/dev/null ||
  fail "import cvs"
cd "$T"
real=$(command -v python3)
mkdir -p bin join
cat >bin/vllm <<STUB
#!/bin/sh
if [ "\$1" = serve ]; then
  hl=no
  while [ \$# -gt 0 ]; do
    case \$1 in
      --nnodes) n=\$2 ;; --node-rank) r=\$2 ;; --master-addr) a=\$2 ;; --master-port) p=\$2 ;;
      --pipeline-parallel-size) pp=\$2 ;; --headless) hl=yes ;;
    esac
    shift
  done
  echo "vllm stand-in: rank \$r of \$n, pp \$pp, headless \$hl"
  exec "$real" "$HERE/server.py" --host 0.0.0.0 --port $PORT --nnodes "\$n" --node-rank "\$r" \
    --dist-init-addr "\$a:\$p" --join-dir "$T/join" --pidfile "$T/server-pids.txt"
fi
while [ \$# -gt 0 ]; do
  case \$1 in --result-dir) dir=\$2 ;; --base-url) url=\$2 ;; esac
  shift
done
"$real" -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1] + "/health")' "\$url" || exit 3
cp "$ASSAY_SOURCE_DIR/tests/fixtures/inference/vllm-llama33-70b-c16.json" "\$dir/results"
STUB
chmod +x bin/vllm
python3 - "$T" "$PORT" "$NODE1" "$(launcher_json)" <<'PY'
import json, sys
t, port, node1, launcher = sys.argv[1:]
s = json.load(open(t + "/imported.json"))
def stub(a):
    out = [t + "/bin/vllm" if x == "vllm" else x for x in a]
    out = [x.replace("8888", port) for x in out]
    return [node1 if x == "10.0.0.1" else x for x in out]
assert s["server"]["nodes"] == 2 and s["launcher"]["type"] == "ssh"
s["server"]["argv"] = stub(s["server"]["argv"])
s["server"]["health"] = s["server"]["health"].replace("gpu01:8888", "%s:%s" % (node1, port))
s["server"]["health_timeout_s"] = 60
s["argv"] = stub(s["argv"])
s["launcher"] = json.loads(launcher)
del s["container"]
json.dump(s, open(t + "/suite.json", "w"), indent=1)
PY
sed -i "s|\"tests/fixtures/|\"$ASSAY_SOURCE_DIR/tests/fixtures/|" suite.json
S=$(store_new s)
HF_TOKEN=hf_stand_in_token_5c2e run_assay 1 run --store "$S" --out out suite.json
expect_grep '^1 cases: 1 gate-failed$' out.txt
expect_grep 'FAIL.*client.mean_ttft_ms' out.txt
expect_grep 'server: started on 2 node\(s\)' err.txt
expect_grep 'vllm stand-in: rank 0 of 2, pp 2, headless no' out/*/server/server.log
expect_grep 'vllm stand-in: rank 1 of 2, pp 2, headless yes' out/*/server/server.log
expect_grep "node rank 1 of 2: init $NODE1:29501" out/*/server/server.log
expect_eq "$(wc -l < "$T/server-pids.txt")" 2 "server processes started (one per node)"
servers_gone
run=$(q "$S" "SELECT run_id FROM runs")
expect_none_left "assay-$run-"
grep -rq hf_stand_in_token_5c2e out && fail "the token was written"
echo ok
