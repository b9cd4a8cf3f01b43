# A CVS config without loss_curve: CVS judges the loss curve with its defaults
# (ROCm/cvs dddd914, training_config_loader.py, LossCurveConfig: sample_every 10,
# milestone_steps [100, 500, 1000, 5000], max_slope 0.0), and so does the suite.
# The config is tests/fixtures/gate/cvs/mi325x_megatron_llama-3.1-8b_single.json
# without its loss_curve.
args: import cvs --user alice tests/fixtures/cli/import/no-loss-curve.json
exit: 0
--- stdout-grep
^    "loss_curve": \{$
^      "sample_every": 10,$
^      "milestones": \[100, 500, 1000, 5000\],$
^      "max_slope": 0.0$
