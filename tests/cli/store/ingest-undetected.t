# content that no format claims
args: store ingest --store $STORE tests/fixtures/detect/step.csv
exit: 2
--- stdout
--- stderr
tests/fixtures/detect/step.csv: cannot tell the format from the content; pass --input-format
