# a file of unknown kind: exit 2 naming the kinds
args: lint tests/fixtures/cli/lint/unknown-kind.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/lint/unknown-kind.json: cannot tell what kind of file this is: a madengine manifest has built_images or built_models, a models.json is an array of model cards, a platform registry has platforms, a sweep has suite and workload, a suite has "kind": "ep" or "command", a madengine additional-context file has keys such as gpu_vendor, docker_env_vars or slurm, a CVS cluster file has node_dict (or pass --kind)
