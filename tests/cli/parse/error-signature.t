# An error signature in a log (the watcher's table) fails the run and is
# reported with its family and line (issue 15). 53f999a exited 0.
args: parse tests/fixtures/training/megatron-nccl-timeout.log
exit: 3
--- stdout-grep
"metric":"lm_loss"
--- stderr
tests/fixtures/training/megatron-nccl-timeout.log: error signature nccl-timeout (nccl) at line 2: [rank3]:[E ProcessGroupNCCL.cpp:616] [Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600012 milliseconds before  (workload-failed)
