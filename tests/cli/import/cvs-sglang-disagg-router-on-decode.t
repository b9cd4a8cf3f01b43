# ROCm/cvs dddd914's SGLang disaggregated config, filled in, with the router
# on gpu03 (the decode role's first host) and the benchmark node gpu01:
# the router's first_host is gpu03's index (2) and its health asked there;
# the client (on the first host) asks the router by its name, as CVS's
# resolve_client_host does when router and benchmark node differ
args: import cvs --user alice --cluster tests/fixtures/cli/import/cluster-4.json tests/fixtures/inference/cvs/sglang_disagg_router_on_decode.json
exit: 0
--- stdout-grep
^      "health": "http://gpu03:8000/health",$
^  "argv": \["python3", "-m", "sglang.bench_serving", .*"--host", "gpu03", "--port", "8000"\],$
--- stderr-grep
benchmark_serv_node: not carried over: the client runs on gpu01 \(the ssh launcher's first host\), against the router at gpu03:8000$
