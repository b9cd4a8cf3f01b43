# unreadable files are named
args: matrix --platforms configs/nope.json configs/sweep-ep.json
exit: 2
--- stdout
--- stderr
configs/nope.json: cannot read: No such file or directory
