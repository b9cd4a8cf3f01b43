# an ep suite has no madengine block
args: manifest --platforms configs/examples/mi355x-platforms.json --suite configs/quickstart.json --combo bf16
exit: 2
--- stdout
--- stderr
configs/quickstart.json: $.kind: a madengine manifest is made from a "command" suite, not "ep"
