# help for an unknown command
args: help nope
exit: 2
--- stdout
--- stderr
assay: unknown command 'nope' (see 'assay --help')
