# a 3% drop at r070 in a higher-is-better series read from CSV
args: detect --input tests/fixtures/detect/step.csv
exit: 0
--- stdout
series       point revision   previous   before: mean sd n        after: mean sd n            change  p-value  kind
-               70 r070       r069       100.042 0.534 70         97.0057 0.65 30             -3.03%  2.3e-43  regression  tests/fixtures/detect/step.csv

1 change point in 1 series (100 points)
--- stderr
