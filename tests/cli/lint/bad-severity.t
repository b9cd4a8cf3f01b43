# an invalid severity in .assay-lint.json: exit 2 naming the file and JSON path; json output has an error entry
args: lint --format json tests/fixtures/cli/lint/bad-severity/build_manifest.json
exit: 2
--- stdout
{
  "schema": "assay.lint/1",
  "files": [
    {
      "file": "tests/fixtures/cli/lint/bad-severity/build_manifest.json",
      "kind": "unknown",
      "errors": 1,
      "warnings": 0,
      "findings": [],
      "error": {
        "message": "expected \"error\", \"warning\" or \"off\", got \"fatal\"",
        "file": "tests/fixtures/cli/lint/bad-severity/.assay-lint.json",
        "path": "$.severity.image-tag"
      }
    }
  ],
  "errors": 1,
  "warnings": 0
}
--- stderr
tests/fixtures/cli/lint/bad-severity/.assay-lint.json: $.severity.image-tag: expected "error", "warning" or "off", got "fatal"
