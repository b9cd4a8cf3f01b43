# ROCm/cvs dddd914's SGLang disaggregated config, filled in, with
# proxy_router_node naming a host the cluster file does not list (CVS's
# conftest refuses role hosts outside node_dict too): the router runs on
# the host it names, so refused (exit 2) naming the key and the file
args: import cvs --user alice --cluster tests/fixtures/cli/import/cluster-4.json tests/fixtures/inference/cvs/sglang_disagg_router_elsewhere.json
exit: 2
--- stdout
--- stderr
tests/fixtures/inference/cvs/sglang_disagg_router_elsewhere.json: $.config.proxy_router_node: "gpu09" is not a host of tests/fixtures/cli/import/cluster-4.json: the router runs on the host it names
