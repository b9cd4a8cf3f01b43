# --context with a context file that is not JSON: exit 2 naming it, and the manifest is not linted
args: lint --format json --context tests/fixtures/cli/lint/not-json.json tests/fixtures/lint/rules/context-override/bad.json
exit: 2
--- stdout
{
  "schema": "assay.lint/1",
  "files": [
    {
      "file": "tests/fixtures/lint/rules/context-override/bad.json",
      "kind": "unknown",
      "errors": 1,
      "warnings": 0,
      "findings": [],
      "error": {
        "message": "invalid JSON: '}' expected near '\"b\"'",
        "file": "tests/fixtures/cli/lint/not-json.json",
        "line": 4,
        "column": 7
      }
    }
  ],
  "errors": 1,
  "warnings": 0
}
--- stderr
tests/fixtures/cli/lint/not-json.json:4:7: invalid JSON: '}' expected near '"b"'
