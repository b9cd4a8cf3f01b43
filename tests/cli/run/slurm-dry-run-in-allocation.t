# Inside an allocation that holds the case (SLURM_JOB_ID set, nodes and CPUs
# enough), each case is an srun step there: no new job
args: run --dry-run --assay-ep assay-ep --out /runs tests/fixtures/cli/run/ep-slurm.json
env: SLURM_JOB_ID=77
env: SLURM_JOB_NODELIST=node[1-2]
env: SLURM_JOB_NUM_NODES=2
env: SLURM_JOB_CPUS_PER_NODE=8(x2)
env: SLURM_STEP_ID=
exit: 0
--- stdout
[1/4] local-cpu-shm-deepseek-v3-normal-decode-ep2-uniform-bf16
  NCCL_DEBUG=WARN srun --nodes=1 --ntasks-per-node=2 --nodelist=node1 --kill-on-bad-exit=1 --mpi=pmix --output=/runs/RUN_ID/slurm/local-cpu-shm-deepseek-v3-normal-decode-ep2-uniform-bf16/%x-%j-%N.out --error=/runs/RUN_ID/slurm/local-cpu-shm-deepseek-v3-normal-decode-ep2-uniform-bf16/%x-%j-%N.err --cpu-bind=none assay-ep run --backend shm --ep 2 --mode normal --phase decode --precision bf16 --tokens 1,2,4,8,16,32,64,128 --profile quick --hidden 7168 --experts 256 --topk 8 --seed 67 --scale-up-domain 2 --workload deepseek-v3 --out /runs/RUN_ID/local-cpu-shm-deepseek-v3-normal-decode-ep2-uniform-bf16/result.json
  a step of Slurm allocation 77 on node1 (in place: no new job)
  logs: /runs/RUN_ID/local-cpu-shm-deepseek-v3-normal-decode-ep2-uniform-bf16/nodes/ (per node), /runs/RUN_ID/local-cpu-shm-deepseek-v3-normal-decode-ep2-uniform-bf16/stdout.log, /runs/RUN_ID/local-cpu-shm-deepseek-v3-normal-decode-ep2-uniform-bf16/stderr.log
  results: /runs/RUN_ID/local-cpu-shm-deepseek-v3-normal-decode-ep2-uniform-bf16/result.json (parser assay-ep)
[2/4] local-cpu-shm-deepseek-v3-normal-prefill-ep2-uniform-bf16
  NCCL_DEBUG=WARN srun --nodes=1 --ntasks-per-node=2 --nodelist=node1 --kill-on-bad-exit=1 --mpi=pmix --output=/runs/RUN_ID/slurm/local-cpu-shm-deepseek-v3-normal-prefill-ep2-uniform-bf16/%x-%j-%N.out --error=/runs/RUN_ID/slurm/local-cpu-shm-deepseek-v3-normal-prefill-ep2-uniform-bf16/%x-%j-%N.err --cpu-bind=none assay-ep run --backend shm --ep 2 --mode normal --phase prefill --precision bf16 --tokens 1024,2048 --profile quick --hidden 7168 --experts 256 --topk 8 --seed 67 --scale-up-domain 2 --workload deepseek-v3 --out /runs/RUN_ID/local-cpu-shm-deepseek-v3-normal-prefill-ep2-uniform-bf16/result.json
  a step of Slurm allocation 77 on node1 (in place: no new job)
  logs: /runs/RUN_ID/local-cpu-shm-deepseek-v3-normal-prefill-ep2-uniform-bf16/nodes/ (per node), /runs/RUN_ID/local-cpu-shm-deepseek-v3-normal-prefill-ep2-uniform-bf16/stdout.log, /runs/RUN_ID/local-cpu-shm-deepseek-v3-normal-prefill-ep2-uniform-bf16/stderr.log
  results: /runs/RUN_ID/local-cpu-shm-deepseek-v3-normal-prefill-ep2-uniform-bf16/result.json (parser assay-ep)
[3/4] local-cpu-shm-deepseek-v3-normal-decode-ep2-uniform-fp8
  NCCL_DEBUG=WARN srun --nodes=1 --ntasks-per-node=2 --nodelist=node1 --kill-on-bad-exit=1 --mpi=pmix --output=/runs/RUN_ID/slurm/local-cpu-shm-deepseek-v3-normal-decode-ep2-uniform-fp8/%x-%j-%N.out --error=/runs/RUN_ID/slurm/local-cpu-shm-deepseek-v3-normal-decode-ep2-uniform-fp8/%x-%j-%N.err --cpu-bind=none assay-ep run --backend shm --ep 2 --mode normal --phase decode --precision fp8 --tokens 1,2,4,8,16,32,64,128 --profile quick --hidden 7168 --experts 256 --topk 8 --seed 67 --scale-up-domain 2 --workload deepseek-v3 --out /runs/RUN_ID/local-cpu-shm-deepseek-v3-normal-decode-ep2-uniform-fp8/result.json
  a step of Slurm allocation 77 on node1 (in place: no new job)
  logs: /runs/RUN_ID/local-cpu-shm-deepseek-v3-normal-decode-ep2-uniform-fp8/nodes/ (per node), /runs/RUN_ID/local-cpu-shm-deepseek-v3-normal-decode-ep2-uniform-fp8/stdout.log, /runs/RUN_ID/local-cpu-shm-deepseek-v3-normal-decode-ep2-uniform-fp8/stderr.log
  results: /runs/RUN_ID/local-cpu-shm-deepseek-v3-normal-decode-ep2-uniform-fp8/result.json (parser assay-ep)
[4/4] local-cpu-shm-deepseek-v3-normal-prefill-ep2-uniform-fp8
  NCCL_DEBUG=WARN srun --nodes=1 --ntasks-per-node=2 --nodelist=node1 --kill-on-bad-exit=1 --mpi=pmix --output=/runs/RUN_ID/slurm/local-cpu-shm-deepseek-v3-normal-prefill-ep2-uniform-fp8/%x-%j-%N.out --error=/runs/RUN_ID/slurm/local-cpu-shm-deepseek-v3-normal-prefill-ep2-uniform-fp8/%x-%j-%N.err --cpu-bind=none assay-ep run --backend shm --ep 2 --mode normal --phase prefill --precision fp8 --tokens 1024,2048 --profile quick --hidden 7168 --experts 256 --topk 8 --seed 67 --scale-up-domain 2 --workload deepseek-v3 --out /runs/RUN_ID/local-cpu-shm-deepseek-v3-normal-prefill-ep2-uniform-fp8/result.json
  a step of Slurm allocation 77 on node1 (in place: no new job)
  logs: /runs/RUN_ID/local-cpu-shm-deepseek-v3-normal-prefill-ep2-uniform-fp8/nodes/ (per node), /runs/RUN_ID/local-cpu-shm-deepseek-v3-normal-prefill-ep2-uniform-fp8/stdout.log, /runs/RUN_ID/local-cpu-shm-deepseek-v3-normal-prefill-ep2-uniform-fp8/stderr.log
  results: /runs/RUN_ID/local-cpu-shm-deepseek-v3-normal-prefill-ep2-uniform-fp8/result.json (parser assay-ep)
--- stderr
