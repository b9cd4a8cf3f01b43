# a Primus model without multiple_results: refused (card-primus-results under --strict)
args: manifest --platforms configs/examples/mi355x-platforms.json --suite tests/fixtures/cli/manifest/primus-no-results.json --combo bf16-2node
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/manifest/primus-no-results.json: $.madengine: the manifest of combo "bf16-2node" would fail `assay lint --strict` at $.built_models["primus_pyt_megatron_lm_train_llama-3.1-8b"]: card-primus-results: Primus card "primus_pyt_megatron_lm_train_llama-3.1-8b" has no multiple_results: Primus prints no "performance:" line, which madengine reads from the log without it, so the run reports no performance; name the CSV its run script writes
