# a port out of range is refused
args: serve --listen 127.0.0.1:70000
exit: 2
--- stdout
--- stderr
assay serve: --listen 127.0.0.1:70000: expected ADDR:PORT
