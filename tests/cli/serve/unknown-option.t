# unknown options are refused
args: serve --port 80
exit: 2
--- stdout
--- stderr
assay serve: unknown option '--port' (see 'assay help serve')
