# An older ROCm/cvs config whose nnodes is no whole number (CVS's int() raises): exit 2 naming $.config.nnodes, nothing written
args: import cvs --user alice --gpu mi350 --out /nonexistent/suite.json tests/fixtures/cli/import/legacy/bad_nnodes.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/import/legacy/bad_nnodes.json: $.config.nnodes: expected a positive whole number, got "two"
