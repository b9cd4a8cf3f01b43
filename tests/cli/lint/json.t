# --format json: the assay.lint/1 document
args: lint --format json tests/fixtures/cli/lint/manifest.json
exit: 1
--- stdout
{
  "schema": "assay.lint/1",
  "files": [
    {
      "file": "tests/fixtures/cli/lint/manifest.json",
      "kind": "manifest",
      "errors": 1,
      "warnings": 1,
      "findings": [
        {
          "rule": "image-tag",
          "severity": "warning",
          "path": "$.built_images.rocm-primus.docker_image",
          "line": 3,
          "column": 21,
          "message": "docker_image \"rocm/primus:latest\" uses the moving \"latest\" tag; pin a version tag or a digest"
        },
        {
          "rule": "misplaced-key",
          "severity": "error",
          "path": "$.slurm",
          "line": 8,
          "column": 3,
          "message": "madengine ignores \"slurm\" here; deployment_config.slurm is set too, to a different value, and that one takes effect"
        }
      ]
    }
  ],
  "errors": 1,
  "warnings": 1
}
--- stderr
