# an unknown combo names the suite's combos; nothing written
args: manifest --platforms configs/examples/mi355x-platforms.json --suite configs/examples/primus-2node.json --combo bf16-4node --out /nonexistent/never-written.json
exit: 2
--- stdout
--- stderr
configs/examples/primus-2node.json: $.combos: no combo "bf16-4node" (the suite has: bf16-2node, fp8-2node)
