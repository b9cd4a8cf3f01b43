# ROCm/cvs dddd914's mi355 llama3_1_8b TorchTitan config with
# use_generated_config "False" (the only change, SOURCE.md): CVS would run
# TorchTitan's canned TOML and ignore the combinations, so the import refuses it
args: import cvs --user alice tests/fixtures/gate/cvs/mi355_llama3_1_8b_single_config_canned.json
exit: 2
--- stdout
--- stderr
tests/fixtures/gate/cvs/mi355_llama3_1_8b_single_config_canned.json: $.config.use_generated_config: "False": CVS then runs TorchTitan's canned TOML and ignores the combinations' batch sizes and precision; assay imports generated configs only ("True")
