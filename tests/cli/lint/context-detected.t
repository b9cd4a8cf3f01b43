# an additional-context file (madengine's 2-node Slurm example) is told from its content and linted as one: kind context, paths in its own terms
args: lint --format json tests/fixtures/lint/cases/madengine-2node-context.json
exit: 1
--- stdout
{
  "schema": "assay.lint/1",
  "files": [
    {
      "file": "tests/fixtures/lint/cases/madengine-2node-context.json",
      "kind": "context",
      "errors": 1,
      "warnings": 0,
      "findings": [
        {
          "rule": "tcp-fallback",
          "severity": "error",
          "path": "$.env_vars.NCCL_IB_DISABLE",
          "line": 24,
          "column": 5,
          "message": "NCCL_IB_DISABLE turns InfiniBand/RoCE off on a multi-node job: NCCL falls back to TCP sockets without a word"
        }
      ]
    }
  ],
  "errors": 1,
  "warnings": 0
}
--- stderr
