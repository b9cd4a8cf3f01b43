# options take their full names: a unique prefix is an unknown option, with the name it would have matched
args: history --sto x.db k
exit: 2
--- stdout
--- stderr
assay history: unknown option '--sto' (did you mean '--store'? options take their full names)
