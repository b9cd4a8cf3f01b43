#!/usr/bin/env bash
# `assay import cvs --cluster` on ROCm/cvs dddd914's SGLang distributed
# config (tests/fixtures/inference/cvs/SOURCE.md, the _filled copy) runs on
# two loopback ssh nodes with its imported server argv: the launcher's
# NODE_RANK and MASTER_ADDR reach each rank's launch_server flags
# (--node-rank, --dist-init-addr MASTER_ADDR:40001, --nnodes 2). Changed
# for the test only: the hosts (the nodes instead of the cluster file's),
# the port, python3 (a stand-in that answers -m sglang.launch_server with
# server.py and -m sglang.bench_serving with client.py) and no container.
# CVS's thresholds judge the stand-in's figures (made from the cell):
# the four cells at CONC below 64 under CVS's minimum output throughput (exit 1).
. "$(dirname "$0")/nodes.sh" "$@"
nodes_up 2
cd "$ASSAY_SOURCE_DIR"
"$ASSAY" import cvs --user alice --cluster tests/fixtures/cli/import/cluster.json \
  --out "$T/imported.json" tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_distributed_filled.json 2>/dev/null ||
  fail "import cvs"
cd "$T"
real=$(command -v python3)
mkdir -p bin join
cat >bin/python3 <<STUB
#!/bin/sh
if [ "\$1 \$2" = "-m sglang.launch_server" ]; then
  shift 2
  while [ \$# -gt 0 ]; do
    case \$1 in
      --host) h=\$2 ;; --nnodes) n=\$2 ;; --node-rank) r=\$2 ;; --dist-init-addr) d=\$2 ;;
    esac
    shift
  done
  exec "$real" "$HERE/server.py" --host "\$h" --port $PORT --nnodes "\$n" --node-rank "\$r" \
    --dist-init-addr "\$d" --join-dir "$T/join" --pidfile "$T/server-pids.txt"
fi
if [ "\$1 \$2" = "-m sglang.bench_serving" ]; then
  while [ \$# -gt 0 ]; do
    case \$1 in
      --num-prompts) n=\$2 ;; --max-concurrency) c=\$2 ;; --host) h=\$2 ;;
      --random-input) i=\$2 ;; --random-output) o=\$2 ;;
    esac
    shift
  done
  exec "$real" "$HERE/client.py" --host "\$h" --port $PORT --random-input \$i \
    --random-output \$o --max-concurrency \$c --num-prompts \$n
fi
exec "$real" "\$@"
STUB
chmod +x bin/python3
python3 - "$T" "$PORT" "$NODE1" "$(launcher_json)" <<'PY'
import json, sys
t, port, node1, launcher = sys.argv[1:]
s = json.load(open(t + "/imported.json"))
stub = lambda a: [t + "/bin/python3" if x == "python3" else (port if x == "8000" else x) for x in a]
assert s["server"]["nodes"] == 2 and s["launcher"]["type"] == "ssh"
s["server"]["argv"] = stub(s["server"]["argv"])
s["server"]["health"] = s["server"]["health"].replace("gpu01:8000", "%s:%s" % (node1, port))
s["server"]["health_timeout_s"] = 60
s["argv"] = stub(s["argv"])
s["launcher"] = json.loads(launcher)
del s["container"]
json.dump(s, open(t + "/suite.json", "w"), indent=1)
PY
sed -i "s|\"tests/fixtures/|\"$ASSAY_SOURCE_DIR/tests/fixtures/|" suite.json
S=$(store_new s)
HF_TOKEN=hf_stand_in_token_9d1a run_assay 1 run --store "$S" --out out suite.json
expect_grep '^8 cases: 4 passed, 4 gate-failed$' out.txt
expect_grep 'server: started on 2 node\(s\)' err.txt
expect_grep "node rank 1 of 2: init $NODE1:40001" out/*/server/server.log
expect_grep 'fired up and ready to roll' out/*/server/server.log
expect_eq "$(wc -l < "$T/server-pids.txt")" 2 "server processes started (one per node)"
servers_gone
run=$(q "$S" "SELECT run_id FROM runs")
expect_none_left "assay-$run-"
grep -rq hf_stand_in_token_9d1a out && fail "the token was written"
echo ok
