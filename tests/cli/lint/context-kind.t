# --kind context (madengine's 2-node example, examples/slurm-configs/basic/03-multi-node-basic.json): the manifest rules that apply, with slurm and env_vars at the top level (no misplaced-key)
args: lint --kind context --disable tcp-fallback tests/fixtures/lint/cases/madengine-2node-context.json
exit: 0
--- stdout
--- stderr
