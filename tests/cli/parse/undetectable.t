# Format auto on text it cannot place: exit 2, nothing printed
args: parse tests/data/training/megatron-basic.log tests/cli/parse/inputs/plain.txt
exit: 2
--- stdout
--- stderr
tests/cli/parse/inputs/plain.txt: cannot tell the format (use --input-format; see 'assay help parse')
