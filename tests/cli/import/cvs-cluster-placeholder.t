# --cluster with a placeholder left in the cluster file: refused naming the file and JSON path, nothing written
args: import cvs --user alice --cluster tests/fixtures/cli/import/cluster-placeholder.json tests/fixtures/cli/import/distributed.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/import/cluster-placeholder.json: $.node_dict.gpu02.vpc_ip: placeholder left in "{xx.xx.xx.xx|hostname}": fill in the cluster file
