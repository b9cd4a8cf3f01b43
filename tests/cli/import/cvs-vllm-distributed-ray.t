# A two-node vLLM config with distributed-executor-backend "ray": CVS
# starts a Ray cluster on every node and vllm serve on the head only
# (vllm_job.py, _bootstrap_ray_cluster); the suite starts no Ray cluster:
# refused (exit 2), nothing written
args: import cvs --user alice --cluster tests/fixtures/cli/import/cluster.json tests/fixtures/inference/cvs/vllm_distributed_ray.json
exit: 2
--- stdout
--- stderr
tests/fixtures/inference/cvs/vllm_distributed_ray.json: $.roles.server.serve_args.distributed-executor-backend: "ray" on 2 nodes: CVS starts a Ray cluster (ray start on every node) and vllm serve on the head only; an assay suite starts no Ray cluster
