# --format json prints the whole document, as --json does
args: matrix --platforms configs/platforms.json --sku local-cpu --backend shm --ep 2 --phase prefill --precision bf16 --format json configs/sweep-local.json
exit: 0
--- stdout-grep
"schema": "assay.matrix/1"
--- stderr
