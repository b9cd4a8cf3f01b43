# A file that does not exist
args: import cvs --user alice no/such/config.json
exit: 2
--- stdout
--- stderr
no/such/config.json: cannot read: No such file or directory
