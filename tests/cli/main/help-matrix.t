# help NAME prints the command's help
args: help matrix
exit: 0
--- stdout
usage: assay matrix --platforms FILE [filters] [--format text|json | --list | --shard ID] SWEEP

Expand SWEEP (a sweep config) over a platform registry into cases: one per
SKU x backend x EP x mode x phase x precision, runnable or unsupported with
a reason, grouped into shards. Prints the counts and the two digests.

options:
  --platforms FILE  the platform registry (e.g. configs/platforms.json); required
  --format F        what is printed: text, or json (the whole matrix document, schema
                    assay.matrix/1) (default: text)
  --json            same as --format json
  --list            print one line per case
  --shard ID        print only the cases of shard ID

filters (comma-separated or repeated; they only remove cases):
  --sku LIST        keep only cases whose sku is in LIST
  --backend LIST    keep only cases whose backend is in LIST
  --ep LIST         keep only cases whose ep is in LIST
  --precision LIST  keep only cases whose precision is in LIST
  --mode LIST       keep only cases whose mode is in LIST
  --phase LIST      keep only cases whose phase is in LIST

example:
  assay matrix --platforms configs/platforms.json --sku h100 configs/sweep-ep.json

Exit codes: 0 printed, 2 bad arguments or invalid config. See docs/matrix.md.
--- stderr
