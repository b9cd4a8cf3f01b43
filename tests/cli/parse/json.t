# --json: each file's format, outcome, errors, cut line and rows (issue 35,
# item 11), in one document.
args: parse --json tests/fixtures/cli/parse/cut-last-line.log tests/fixtures/cli/parse/crash-before-training.log
exit: 3
--- stdout-grep
^\{"files":\[\{"cut_line":4,"errors":\[\],"exit":3,"file":"tests/fixtures/cli/parse/cut-last-line.log","format":"megatron","outcome":"workload-failed",
"format":null,"outcome":"workload-failed",
--- stderr
tests/fixtures/cli/parse/cut-last-line.log: warning: line 4 has no line end and no closing "|": the log was cut there; only its error signatures were read
tests/fixtures/cli/parse/cut-last-line.log: incomplete run: the last step is 3 of 4, with no final "iteration N/N" line, no torchrun marker and no Megatron exit line (workload-failed)
tests/fixtures/cli/parse/crash-before-training.log: error signature python-traceback (python) at line 2: [rank0]: Traceback (most recent call last):; error signature nccl-error (nccl) at line 7: [rank0]: torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:317, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5 (workload-failed)
