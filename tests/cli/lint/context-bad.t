# --context with a context file that is not JSON: exit 2 naming it, and the manifest is not linted
args: lint --format json --context tests/cli/lint/inputs/not-json.json tests/lint/rules/context-override/bad.json
exit: 2
--- stdout
{
  "schema": "assay.lint/1",
  "files": [
    {
      "file": "tests/lint/rules/context-override/bad.json",
      "kind": "unknown",
      "errors": 1,
      "warnings": 0,
      "findings": [],
      "error": {
        "message": "invalid JSON: '}' expected near '\"b\"'",
        "file": "tests/cli/lint/inputs/not-json.json",
        "line": 4,
        "column": 7
      }
    }
  ],
  "errors": 1,
  "warnings": 0
}
--- stderr
tests/cli/lint/inputs/not-json.json:4:7: invalid JSON: '}' expected near '"b"'
