# The ssh launcher refuses a suite it cannot run, naming the file and JSON path (docs/ssh.md)
args: run --dry-run tests/fixtures/cli/run/ssh-cluster-head.json
exit: 2
--- stdout
--- stderr
tests/fixtures/ssh/cluster-bad-head.json: $.head_node_dict.mgmt_ip: "gpu09" is not a key of node_dict
