# ROCm/cvs dddd914's SGLang single-node config with --cluster: its server
# runs where assay runs, so the ssh launcher would split it from its
# client; refused (exit 2), nothing written
args: import cvs --user alice --cluster tests/fixtures/cli/import/cluster.json tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_single.json
exit: 2
--- stdout
--- stderr
tests/fixtures/inference/cvs/mi30x_sglang_llama_70b_single.json: $: --cluster tests/fixtures/cli/import/cluster.json: a single-node SGLang config starts its server on the host assay runs on; run the suite there, without --cluster
