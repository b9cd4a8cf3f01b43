# a store that does not exist is a usage error, and nothing is created
args: serve --store tests/cli/serve/missing.db --listen 127.0.0.1:0
exit: 2
--- stdout
--- stderr
tests/cli/serve/missing.db: no such store (No such file or directory)
