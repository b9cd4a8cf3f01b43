# --context: a manifest merged with its additional-context file as madengine merges them
# (madengine src/madengine/orchestration/run_orchestrator.py, _load_and_merge_manifest: each of
# deploy, slurm, k8s, kubernetes, distributed, vllm, env_vars, debug in the context replaces
# manifest["deployment_config"][key] whole). The context file is madengine's own 2-node example
# (examples/slurm-configs/basic/03-multi-node-basic.json), which sets NCCL_IB_DISABLE=1; each
# finding names the file whose value takes effect.
args: lint --context tests/fixtures/lint/rules/context-override/ctx-2node.json tests/fixtures/lint/rules/context-override/bad.json
exit: 1
--- stdout
tests/fixtures/lint/rules/context-override/ctx-2node.json:$.slurm: warning: context-override: slurm replaces the manifest's deployment_config.slurm whole (madengine does not merge the two), so account, qos, nodelist set there do not apply; this file's value takes effect
tests/fixtures/lint/rules/context-override/ctx-2node.json:$.env_vars: warning: context-override: env_vars replaces the manifest's deployment_config.env_vars whole (madengine does not merge the two), so HF_HOME, GLOO_SOCKET_IFNAME, NCCL_IB_HCA set there do not apply; this file's value takes effect
tests/fixtures/lint/rules/context-override/ctx-2node.json:$.env_vars.NCCL_IB_DISABLE: error: tcp-fallback: NCCL_IB_DISABLE turns InfiniBand/RoCE off on a multi-node job: NCCL falls back to TCP sockets without a word
--- stderr
assay lint: 1 error, 2 warnings in 1 file
