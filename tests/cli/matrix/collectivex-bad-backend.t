# A CollectiveX registry naming a backend CollectiveX's generator does not know
args: matrix --platforms tests/fixtures/matrix/collectivex-bad-backend.json tests/fixtures/matrix/collectivex/sweep.json
exit: 2
--- stdout
--- stderr
tests/fixtures/matrix/collectivex-bad-backend.json: $.platforms.h100-dgxc.backends.deepep-v3: unknown CollectiveX backend "deepep-v3" (known: deepep-v2, mori, uccl-ep, nccl-ep, flashinfer-ep)
