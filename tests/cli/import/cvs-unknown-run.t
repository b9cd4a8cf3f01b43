# sweep.runs names a combination that does not exist (CVS's validate_sweep_selector)
args: import cvs --user alice tests/fixtures/cli/import/unknown-run.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/import/unknown-run.json: $.sweep.runs[1]: "llama3_1_8b-mi325-bs128-mbs4-fp16" names no entry of $.sweep.combinations
