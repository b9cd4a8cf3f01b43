# --format sarif: a SARIF 2.1.0 log, every rule in the driver, located results
args: lint --format sarif tests/fixtures/cli/lint/manifest.json
exit: 1
--- stdout-grep
^  "version": "2\.1\.0",$
"\$schema": "https://json\.schemastore\.org/sarif-2\.1\.0\.json"
^          "name": "assay",$
"id": "assay-config"
"ruleId": "misplaced-key",
"text": "\$\.slurm: madengine ignores \\"slurm\\" here
"uri": "tests/fixtures/cli/lint/manifest\.json"
"startLine": 8,
"fullyQualifiedName": "\$\.slurm"
--- stderr
