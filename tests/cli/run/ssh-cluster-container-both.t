# A suite's own container block and a CVS cluster file's container block (orchestrator container) both ask for a container: refused, naming both (docs/ssh.md)
args: run --dry-run --out /runs tests/fixtures/cli/run/ssh-cluster-container-both.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/run/ssh-cluster-container-both.json: $.launcher: case c1: the suite's container block and the container block of tests/fixtures/ssh/cvs-cluster-container.json both ask for a container: keep one
