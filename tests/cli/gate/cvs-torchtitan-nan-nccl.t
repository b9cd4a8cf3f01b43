# TorchTitan (ROCm/cvs dddd914, cvs/lib/training/torchtitan/torchtitan_lib.py): "loss: nan" fails the run (TRAINING_NAN_PATTERNS), and the error
# dictionary (training_err_dict) is searched case-insensitively: "nccl error" in lower case fails it.
# A failed run is exit 3, as for a Megatron log.
args: gate --thresholds tests/fixtures/gate/cvs/mi355_llama3_1_8b_single_threshold.json --combo MBS=1,GBS=8,PRECISION=bf16 tests/fixtures/training/torchtitan-nan-nccl.log
exit: 3
--- stdout
status   gate       metric                         value                         spec              message
FAIL     run        nonfinite/total                1                             0                 lines with tok/s: or loss: NaN or Inf: CVS's TorchTitan test fails the run
PASS     run        unreadable/total               0                             0                 none: values float() cannot read
FAIL     run        errors                         1 lines                       no error pattern  NCCL ERROR (cvs torchtitan) at line 16: [rank0]:[E1120 10:01:40.123456 ProcessGroupNCCL.cpp:616] [Rank 0] nccl error: unhandled system error (run with NCCL_DEBUG=INFO for details)
PASS     threshold  tokens_per_sec/cvs_mean        11756.833 tokens/s/GPU        >= 10590          11756.8 >= 10590
PASS     threshold  tokens_per_sec_x_gbs/cvs_mean  94054.667 tokens/s/GPU x GBS  >= 84720          94054.7 >= 84720
PASS     threshold  loss/last                      11.0215 nats                  <= 12.77          11.0215 <= 12.77
RECORD   threshold  tokens_per_sec/last            11759 tokens/s/GPU                              no threshold
RECORD   threshold  loss/first                     12.2473 nats                                    no threshold
RECORD   threshold  mem_usage_gb/max               60.19 GiB                                       no threshold
RECORD   threshold  steps/max                      7 steps                                         no threshold
RECORD   threshold  nonfinite/total                1 lines                                         no threshold
RECORD   threshold  unreadable/total               0 values                                        no threshold

12 verdicts: 4 pass, 2 fail, 6 record, 0 skipped
--- stderr
