#!/usr/bin/env bash
# `assay import cvs --cluster` on ROCm/cvs dddd914's SGLang disaggregated
# config (tests/fixtures/inference/cvs/SOURCE.md, the _filled copy) runs on
# four loopback ssh nodes with its imported role servers: prefill on hosts
# 0-1 and decode on hosts 2-3, each rank's --node-rank from the launcher's
# NODE_RANK and its --dist-init-addr the config's coordinator, the router
# on host 0 given both roles' URLs, the clients against the router at
# 127.0.0.1; started prefill, decode, router and stopped in reverse.
# Changed for the test only: the hosts (the nodes instead of the cluster
# file's names gpu01..gpu04), the three ports, python3 (a stand-in that
# answers -m sglang.launch_server and -m sglang_router.launch_router with
# server.py and -m sglang.bench_serving with client.py) and no container.
# CVS's thresholds judge the stand-in's figures (made from the cell): the
# four cells at CONC below 64 under CVS's minimum output throughput (exit 1).
. "$(dirname "$0")/nodes.sh" "$@"
nodes_up 4
free() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
P2=$PORT P3=$PORT
while [ "$P2" = "$PORT" ]; do P2=$(free); done
while [ "$P3" = "$PORT" ] || [ "$P3" = "$P2" ]; do P3=$(free); done
cd "$ASSAY_SOURCE_DIR"
"$ASSAY" import cvs --user alice --cluster tests/fixtures/cli/import/cluster-4.json \
  --out "$T/imported.json" tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_disaggregated_filled.json 2>/dev/null ||
  fail "import cvs"
cd "$T"
real=$(command -v python3)
mkdir -p bin join-prefill join-decode
cat >bin/python3 <<STUB
#!/bin/sh
if [ "\$1 \$2" = "-m sglang.launch_server" ]; then
  shift 2
  while [ \$# -gt 0 ]; do
    case \$1 in
      --host) h=\$2 ;; --port) p=\$2 ;; --nnodes) n=\$2 ;; --node-rank) r=\$2 ;;
      --dist-init-addr) d=\$2 ;; --disaggregation-mode) m=\$2 ;;
    esac
    shift
  done
  echo "\$m rank \$r of \$n on \$(hostname): init \$d"
  exec "$real" "$HERE/server.py" --host "\$h" --port "\$p" --nnodes "\$n" --node-rank "\$r" \
    --dist-init-addr "\$d" --join-dir "$T/join-\$m" --pidfile "$T/server-pids.txt"
fi
if [ "\$1 \$2" = "-m sglang_router.launch_router" ]; then
  shift 2
  while [ \$# -gt 0 ]; do
    case \$1 in
      --host) h=\$2 ;; --port) p=\$2 ;; --prefill) pf=\$2 ;; --decode) dc=\$2 ;;
    esac
    shift
  done
  echo "router: prefill \$pf decode \$dc"
  exec "$real" "$HERE/server.py" --host "\$h" --port "\$p" --pidfile "$T/server-pids.txt"
fi
if [ "\$1 \$2" = "-m sglang.bench_serving" ]; then
  while [ \$# -gt 0 ]; do
    case \$1 in
      --num-prompts) n=\$2 ;; --max-concurrency) c=\$2 ;; --host) h=\$2 ;; --port) p=\$2 ;;
      --random-input) i=\$2 ;; --random-output) o=\$2 ;;
    esac
    shift
  done
  exec "$real" "$HERE/client.py" --host "\$h" --port "\$p" --random-input \$i \
    --random-output \$o --max-concurrency \$c --num-prompts \$n
fi
exec "$real" "\$@"
STUB
chmod +x bin/python3
python3 - "$T" "$PORT" "$P2" "$P3" "$NODE1" "$NODE3" "$(launcher_json)" <<'PY'
import json, sys
t, p1, p2, p3, node1, node3, launcher = sys.argv[1:]
names = {"gpu01": node1, "gpu03": node3}
ports = {"30001": p1, "30002": p2, "8000": p3}
def fix(x):
    if x == "python3":
        return t + "/bin/python3"
    x = ports.get(x, x)
    for k, v in ports.items():
        x = x.replace(":" + k, ":" + v)
    for k, v in names.items():
        x = x.replace(k + ":", v + ":").replace("=" + k, "=" + v)
    return x
s = json.load(open(t + "/imported.json"))
roles = [r["role"] for r in s["servers"]]
assert roles == ["prefill", "decode", "router"], roles
assert [(r["first_host"], r["nodes"]) for r in s["servers"]] == [(0, 2), (2, 2), (0, 1)]
for r in s["servers"]:
    r["argv"] = [fix(a) for a in r["argv"]]
    r["health"] = fix(r["health"])
    r["health_timeout_s"] = 60
    r["stop_grace_s"] = 5
s["argv"] = [fix(a) for a in s["argv"]]
s["launcher"] = json.loads(launcher)
del s["container"]
json.dump(s, open(t + "/suite.json", "w"), indent=1)
PY
sed -i "s|\"tests/fixtures/|\"$ASSAY_SOURCE_DIR/tests/fixtures/|" suite.json
S=$(store_new s)
HF_TOKEN=hf_stand_in_token_4c7e run_assay 1 run --store "$S" --out out suite.json
expect_grep '^8 cases: 4 passed, 4 gate-failed$' out.txt
expect_eq "$(grep -oE '(prefill|decode|router): (started|stopped)' err.txt | tr '\n' ' ')" \
  "prefill: started decode: started router: started router: stopped decode: stopped prefill: stopped " \
  "start and stop order"
expect_grep "prefill rank 1 of 2 on .*: init $NODE1:40001" out/*/server-prefill/server.log
expect_grep "decode rank 1 of 2 on .*: init $NODE3:40002" out/*/server-decode/server.log
expect_grep "router: prefill http://$NODE1:$PORT decode http://$NODE3:$P2" out/*/server-router/server.log
expect_grep "^ssh to $NODE1 $NODE2 \\(" out/*/server-prefill/command.txt
expect_grep "^ssh to $NODE3 $NODE4 \\(" out/*/server-decode/command.txt
expect_grep "^ssh to $NODE1 \\(" out/*/server-router/command.txt
expect_eq "$(wc -l < "$T/server-pids.txt")" 5 "server processes started (2 prefill, 2 decode, 1 router)"
servers_gone
run=$(q "$S" "SELECT run_id FROM runs")
expect_none_left "assay-$run-"
grep -rq hf_stand_in_token_4c7e out && fail "the token was written"
echo ok
