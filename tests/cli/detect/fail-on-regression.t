# --fail-on-regression turns a reported regression into exit code 1
args: detect --input tests/fixtures/detect/step.csv --fail-on-regression --format csv
exit: 1
--- stdout-grep
,regression,,higher,value,$
--- stderr
