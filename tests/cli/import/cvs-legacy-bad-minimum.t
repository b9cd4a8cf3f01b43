# An older ROCm/cvs config whose result_dict value is no number (CVS's float() raises): exit 2 naming its JSON path, nothing written
args: import cvs --user alice --gpu mi355 --out /nonexistent/suite.json tests/fixtures/cli/import/legacy/bad_minimum.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/import/legacy/bad_minimum.json: $.model_params.single_node.llama3_1_70b.mi355.result_dict.tokens_per_gpu: expected a number (CVS's float())
