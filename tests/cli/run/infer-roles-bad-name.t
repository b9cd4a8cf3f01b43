# A role names a folder and a label: lower-case letters, digits and _
args: run --dry-run tests/fixtures/cli/run/infer-roles-bad-name.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/run/infer-roles-bad-name.json: $.servers[0].role: expected a name of up to 32 lower-case letters, digits and _ (it names the role's folder and label), got "Prefill/1"
