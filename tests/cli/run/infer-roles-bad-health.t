# A role server's health is an http:// URL, refused naming its index
args: run --dry-run tests/fixtures/cli/run/infer-roles-bad-health.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/run/infer-roles-bad-health.json: $.servers[1].health: expected an http:// URL (assay asks it with a plain GET), got "gpu02:8000/health"
