# nccl-tests' text output (a 16 x H100 all_reduce_perf log as nccl-tests 2.19 prints it) ingests by content: 31 sizes x 2 placements x time, algbw, busbw, #wrong, plus the average bus bandwidth; scale 2x8 from the devices
args: store ingest --store $STORE --force --cluster h100-b tests/fixtures/nccl-text/all_reduce_perf-h100-2n.log
exit: 0
--- stdout-grep
^tests/fixtures/nccl-text/all_reduce_perf-h100-2n.log: nccl-tests-text, 249 new, 0 already present, run [0-9]{8}T[0-9]{6}Z-[0-9a-f]{6}$
--- stderr
