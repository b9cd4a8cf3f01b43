# A file that is not JSON: file, line and column
args: import cvs tests/fixtures/gate/cvs/SOURCE.md
exit: 2
--- stdout
--- stderr
tests/fixtures/gate/cvs/SOURCE.md:1:1: invalid JSON: '[' or '{' expected near '#'
