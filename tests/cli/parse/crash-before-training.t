# A run that crashed before its first training line (issue 35, item 10):
# exit 3 with its error families, not "cannot tell the format". The fixture
# is a torchrun rank's traceback in CPython's format (Lib/traceback.py) ending
# in PyTorch's NCCL error (torch/csrc/distributed/c10d/NCCLUtils.hpp), its
# exception coloured: the escapes are not in what is shown (item 11).
args: parse --json tests/fixtures/cli/parse/crash-before-training.log
exit: 3
--- stdout
{"files":[{"cut_line":null,"errors":[{"count":1,"family":"python","line":2,"signature":"python-traceback","text":"[rank0]: Traceback (most recent call last):"},{"count":1,"family":"nccl","line":7,"signature":"nccl-error","text":"[rank0]: torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:317, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5"}],"exit":3,"file":"tests/fixtures/cli/parse/crash-before-training.log","format":null,"outcome":"workload-failed","reason":"error signature python-traceback (python) at line 2: [rank0]: Traceback (most recent call last):; error signature nccl-error (nccl) at line 7: [rank0]: torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:317, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5","rows":[]}]}
--- stderr
tests/fixtures/cli/parse/crash-before-training.log: error signature python-traceback (python) at line 2: [rank0]: Traceback (most recent call last):; error signature nccl-error (nccl) at line 7: [rank0]: torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:317, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5 (workload-failed)
