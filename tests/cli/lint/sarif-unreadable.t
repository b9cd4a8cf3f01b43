# --format sarif: a file that cannot be linted is a toolExecutionNotification of a failed invocation
args: lint --format sarif tests/fixtures/cli/lint/not-json.json
exit: 2
--- stdout-grep
^          "executionSuccessful": false,$
^          "toolExecutionNotifications": \[$
^              "level": "error",$
"text": "invalid JSON: '}' expected near '\\"b\\"'"
"uri": "tests/fixtures/cli/lint/not-json.json"
^                      "startLine": 4,$
--- stderr
tests/fixtures/cli/lint/not-json.json:4:7: invalid JSON: '}' expected near '"b"'
