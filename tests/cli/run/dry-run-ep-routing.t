# The routing factor reaches assay-ep as --routing (uniform, its default, is
# not passed: uniform cases keep their commands)
args: run --dry-run --assay-ep assay-ep tests/fixtures/cli/run/ep-routing.json
exit: 0
--- stdout-grep
^\[1/3\] local-cpu-shm-deepseek-v3-normal-decode-ep2-hot-8-0\.5-bf16$
^  mpirun -np 2 (--allow-run-as-root )?(--oversubscribe )?assay-ep run --backend shm --ep 2 --mode normal --phase decode --precision bf16 --tokens 1,8,64 --profile quick --hidden 7168 --experts 256 --topk 8 --seed 67 --routing hot:8:0\.5 --scale-up-domain 2 --workload deepseek-v3 --out out/golden/RUN_ID/local-cpu-shm-deepseek-v3-normal-decode-ep2-hot-8-0\.5-bf16/result\.json$
^  mpirun -np 2 (--allow-run-as-root )?(--oversubscribe )?assay-ep run --backend shm --ep 2 --mode normal --phase decode --precision bf16 --tokens 1,8,64 --profile quick --hidden 7168 --experts 256 --topk 8 --seed 67 --scale-up-domain 2 --workload deepseek-v3 --out out/golden/RUN_ID/local-cpu-shm-deepseek-v3-normal-decode-ep2-uniform-bf16/result\.json$
^  mpirun -np 2 (--allow-run-as-root )?(--oversubscribe )?assay-ep run --backend shm --ep 2 --mode normal --phase decode --precision bf16 --tokens 1,8,64 --profile quick --hidden 7168 --experts 256 --topk 8 --seed 67 --routing zipf:1\.2 --scale-up-domain 2 --workload deepseek-v3 --out out/golden/RUN_ID/local-cpu-shm-deepseek-v3-normal-decode-ep2-zipf-1\.2-bf16/result\.json$
--- stderr
