# NCCL_IB_DISABLE=1 in the suite's env of a 2-node job: refused, naming the suite's key
args: manifest --platforms configs/examples/mi355x-platforms.json --suite tests/fixtures/cli/manifest/tcp-fallback.json --combo bf16-2node
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/manifest/tcp-fallback.json: $.env.NCCL_IB_DISABLE: the manifest of combo "bf16-2node" would fail `assay lint --strict` at $.context.docker_env_vars.NCCL_IB_DISABLE: tcp-fallback: NCCL_IB_DISABLE turns InfiniBand/RoCE off on a multi-node job: NCCL falls back to TCP sockets without a word
