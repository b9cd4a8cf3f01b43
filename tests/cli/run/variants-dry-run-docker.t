# Variants of a container image, repeated twice: the cases interleave (stock,
# overlay, stock, overlay), the overlay runs its own image (a template filled
# from the variant's vars) and gets its extra arguments
args: run --dry-run --out /runs tests/fixtures/cli/run/variants-docker.json
exit: 0
--- stdout
[1/4] bf16.stock.1
  docker run --rm --init --log-driver none --name assay-RUN_ID-bf16.stock.1-a1 --label assay.run=RUN_ID --label assay.case=bf16.stock.1 --pull=never -v /runs/RUN_ID/bf16.stock.1:/runs/RUN_ID/bf16.stock.1 rocm/pytorch:stock python3 train.py --precision BF16
  logs: /runs/RUN_ID/bf16.stock.1/stdout.log, /runs/RUN_ID/bf16.stock.1/stderr.log; timeout 600 s (then SIGTERM, SIGKILL after 5 s)
[2/4] bf16.overlay.1
  docker run --rm --init --log-driver none --name assay-RUN_ID-bf16.overlay.1-a1 --label assay.run=RUN_ID --label assay.case=bf16.overlay.1 --pull=never -v /runs/RUN_ID/bf16.overlay.1:/runs/RUN_ID/bf16.overlay.1 rocm/pytorch:rccl-2.22.3 python3 train.py --precision BF16 --note bf16.overlay.1
  logs: /runs/RUN_ID/bf16.overlay.1/stdout.log, /runs/RUN_ID/bf16.overlay.1/stderr.log; timeout 600 s (then SIGTERM, SIGKILL after 5 s)
[3/4] bf16.stock.2
  docker run --rm --init --log-driver none --name assay-RUN_ID-bf16.stock.2-a1 --label assay.run=RUN_ID --label assay.case=bf16.stock.2 --pull=never -v /runs/RUN_ID/bf16.stock.2:/runs/RUN_ID/bf16.stock.2 rocm/pytorch:stock python3 train.py --precision BF16
  logs: /runs/RUN_ID/bf16.stock.2/stdout.log, /runs/RUN_ID/bf16.stock.2/stderr.log; timeout 600 s (then SIGTERM, SIGKILL after 5 s)
[4/4] bf16.overlay.2
  docker run --rm --init --log-driver none --name assay-RUN_ID-bf16.overlay.2-a1 --label assay.run=RUN_ID --label assay.case=bf16.overlay.2 --pull=never -v /runs/RUN_ID/bf16.overlay.2:/runs/RUN_ID/bf16.overlay.2 rocm/pytorch:rccl-2.22.3 python3 train.py --precision BF16 --note bf16.overlay.2
  logs: /runs/RUN_ID/bf16.overlay.2/stdout.log, /runs/RUN_ID/bf16.overlay.2/stderr.log; timeout 600 s (then SIGTERM, SIGKILL after 5 s)
--- stderr
