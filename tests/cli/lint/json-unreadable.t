# --format json: a file that cannot be linted is an entry with an error, counted in errors
args: lint --format json tests/fixtures/cli/lint/not-json.json tests/fixtures/cli/lint/no-such-file.json tests/fixtures/cli/lint/warnings.json
exit: 2
--- stdout
{
  "schema": "assay.lint/1",
  "files": [
    {
      "file": "tests/fixtures/cli/lint/not-json.json",
      "kind": "unknown",
      "errors": 1,
      "warnings": 0,
      "findings": [],
      "error": {
        "message": "invalid JSON: '}' expected near '\"b\"'",
        "line": 4,
        "column": 7
      }
    },
    {
      "file": "tests/fixtures/cli/lint/no-such-file.json",
      "kind": "unknown",
      "errors": 1,
      "warnings": 0,
      "findings": [],
      "error": {
        "message": "cannot read: No such file or directory"
      }
    },
    {
      "file": "tests/fixtures/cli/lint/warnings.json",
      "kind": "manifest",
      "errors": 0,
      "warnings": 1,
      "findings": [
        {
          "rule": "image-tag",
          "severity": "warning",
          "path": "$.built_images.rocm-primus.docker_image",
          "line": 2,
          "column": 36,
          "message": "docker_image \"rocm/primus\" has no tag: docker resolves it to \"latest\", which moves; pin a version tag or a digest"
        }
      ]
    }
  ],
  "errors": 2,
  "warnings": 1
}
--- stderr
tests/fixtures/cli/lint/not-json.json:4:7: invalid JSON: '}' expected near '"b"'
tests/fixtures/cli/lint/no-such-file.json: cannot read: No such file or directory
