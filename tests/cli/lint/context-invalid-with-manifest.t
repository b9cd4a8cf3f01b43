# --context with a context file madengine's validate_additional_context rejects
# (ROCm/madengine ef87d05, cli/validators.py: tools must be an array): reported
# in the context file, at its own path
args: lint --context tests/fixtures/lint/rules/context-invalid/bad-tools.json tests/fixtures/lint/rules/tcp-fallback/good.json
exit: 1
--- stdout
tests/fixtures/lint/rules/context-invalid/bad-tools.json:$.docker_env_vars.NCCL_IB_HCA: warning: context-override: the manifest's context.docker_env_vars.NCCL_IB_HCA ("mlx5_0:1,mlx5_1:1") takes effect: madengine restores the manifest's docker_env_vars over the additional context, so this value is ignored
tests/fixtures/lint/rules/context-invalid/bad-tools.json:$.docker_env_vars.NCCL_DEBUG: warning: context-override: the manifest's context.docker_env_vars.NCCL_DEBUG ("INFO") takes effect: madengine restores the manifest's docker_env_vars over the additional context, so this value is ignored
tests/fixtures/lint/rules/context-invalid/bad-tools.json:$.tools: error: context-invalid: madengine refuses this context: tools must be an array, got {} (validate_additional_context exits before anything runs)
--- stderr
assay lint: 1 error, 2 warnings in 1 file
