# the doc page's option list, made from the command's option table
args: help --options-md report
exit: 0
--- stdout
- `--store PATH`: the results store, opened read-only (default: assay.db)
- `--out DIR`: write the files into DIR (default: the run's output folder); links to the cases' logs are relative to DIR
--- stderr
