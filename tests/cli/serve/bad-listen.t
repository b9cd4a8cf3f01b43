# --listen takes an IPv4 address and a port; nothing is opened
args: serve --store tests/cli/serve/missing.db --listen localhost:80
exit: 2
--- stdout
--- stderr
assay serve: --listen localhost:80: expected an IPv4 address
