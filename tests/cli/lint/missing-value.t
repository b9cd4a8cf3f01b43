# an option without its value says what it expects
args: lint --context
exit: 2
--- stdout
--- stderr
assay lint: option '--context' expects a value (FILE)
