# threshold_json is resolved next to the config, as CVS does; a missing file is an error
args: import cvs --user alice tests/fixtures/cli/import/no-threshold.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/import/no-threshold.json: $.threshold_json: tests/fixtures/cli/import/mi325x_megatron_llama-3.1-8b_single_threshold.json cannot be read (CVS resolves it next to the config)
