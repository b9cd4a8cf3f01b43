# Format auto on text it cannot place: exit 2, nothing printed
args: parse tests/fixtures/training/megatron-basic.log tests/fixtures/cli/parse/plain.txt
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/parse/plain.txt: cannot tell the format (use --input-format; see 'assay help parse')
