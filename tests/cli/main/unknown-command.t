# unknown commands are named
args: frobnicate
exit: 2
--- stdout
--- stderr
assay: unknown command 'frobnicate' (see 'assay --help')
