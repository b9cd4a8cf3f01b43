# ROCm/cvs dddd914's SGLang config with a second benchmark_params variant and
# no active_benchmark (tests/fixtures/inference/cvs/SOURCE.md): refused, as
# CVS refuses it (resolve_benchmark_variant_key)
args: import cvs --user alice tests/fixtures/inference/cvs/sglang_two_variants.json
exit: 2
--- stdout
--- stderr
tests/fixtures/inference/cvs/sglang_two_variants.json: $.benchmark_params: 2 variants and no active_benchmark naming one
