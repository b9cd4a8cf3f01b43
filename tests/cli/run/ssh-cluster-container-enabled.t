# CVS's older container keys (enabled, launch: ROCm/cvs 867f98f) are refused as CVS dddd914 refuses them (cvs/core/orchestrators/factory.py), naming the key and what replaces it
args: run --dry-run --out /runs tests/fixtures/cli/run/ssh-cluster-container-enabled.json
exit: 2
--- stdout
--- stderr
tests/fixtures/ssh/cvs-cluster-container-enabled.json: $.container.enabled: removed from CVS: delete it and set "lifetime" (no_launch, per_run or persistent)
