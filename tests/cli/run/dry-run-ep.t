# An EP suite's runnable case is mpirun -np EP assay-ep run with the case's
# factors (mpirun flags depend on this machine: root, cores)
args: run --dry-run --assay-ep assay-ep tests/fixtures/cli/run/ep-local.json
exit: 0
--- stdout-grep
^\[1/1\] local-cpu-shm-deepseek-v3-normal-decode-ep2-uniform-bf16$
^  mpirun -np 2 (--allow-run-as-root )?(--oversubscribe )?assay-ep run --backend shm --ep 2 --mode normal --phase decode --precision bf16 --tokens 1,2,4,8,16,32,64,128 --profile quick --hidden 7168 --experts 256 --topk 8 --seed 67 --scale-up-domain 2 --workload deepseek-v3 --out out/golden/RUN_ID/local-cpu-shm-deepseek-v3-normal-decode-ep2-uniform-bf16/result\.json$
^  logs: out/golden/RUN_ID/local-cpu-shm-deepseek-v3-normal-decode-ep2-uniform-bf16/stdout\.log, out/golden/RUN_ID/local-cpu-shm-deepseek-v3-normal-decode-ep2-uniform-bf16/stderr\.log$
^  results: out/golden/RUN_ID/local-cpu-shm-deepseek-v3-normal-decode-ep2-uniform-bf16/result\.json \(parser assay-ep\)$
--- stderr
