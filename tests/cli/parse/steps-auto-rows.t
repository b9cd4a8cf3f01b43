# --steps on a file that format auto reads as rows
args: parse --steps tests/fixtures/gate/primus-complete.ndjson
exit: 2
--- stdout
--- stderr
tests/fixtures/gate/primus-complete.ndjson: --steps needs a training log, not format rows
