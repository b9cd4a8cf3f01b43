# NOT as shipped: ROCm/cvs dddd914's mi300x llama-3.3-70b single-node MaxText
# config with one key added to its FP8 sweep's maxtext_overrides
# (tests/fixtures/gate/cvs/SOURCE.md): CVS would write that key into the FP8
# run's YAML only; the suite writes one YAML shape for every case, so the
# import refuses it (exit 2, nothing written).
args: import cvs --user alice tests/fixtures/gate/cvs/mi300x_jaxmaxtext_llama-3.3-70b_single_keys.json
exit: 2
--- stdout
--- stderr
tests/fixtures/gate/cvs/mi300x_jaxmaxtext_llama-3.3-70b_single_keys.json: $.training.sweeps: sweep "NNODES=1,STEPS=30,PRECISION=FP8,BATCH=5,GBS=40,SEQLEN=8192" sets maxtext keys the others do not: the suite writes one YAML with the same keys for every sweep
