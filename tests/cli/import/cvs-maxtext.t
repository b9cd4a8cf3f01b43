# ROCm/cvs dddd914's mi355x JAX/MaxText config, unchanged
# (tests/fixtures/gate/cvs/SOURCE.md): not imported (exit 2, nothing written);
# the error says what CVS prepares that a suite would need and where its logs
# are judged instead
args: import cvs --user alice tests/fixtures/gate/cvs/mi355x_jaxmaxtext_llama-3.1-8b_distributed.json
exit: 2
--- stdout
--- stderr
tests/fixtures/gate/cvs/mi355x_jaxmaxtext_llama-3.1-8b_distributed.json: $.framework: "jaxmaxtext": not imported: CVS writes a MaxText YAML config and an env script per run and picks the train script among train_script_paths by what the image ships; judge CVS's MaxText logs with assay gate --thresholds (docs/gate.md)
