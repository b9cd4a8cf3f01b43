# unknown keys are rejected
args: matrix --platforms tests/fixtures/cli/matrix/unknown-key.json configs/sweep-local.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/matrix/unknown-key.json: $.platforms.local-cpu.gpu_count: unknown key (expected one of: arch, gpus_per_node, scale_up_domain, scale_up_transport, scale_out_transport, backends, ll_backends, fabric, network, operator)
