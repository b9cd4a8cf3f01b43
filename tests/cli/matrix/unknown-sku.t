# an unknown filter value is an error
args: matrix --platforms configs/platforms.json --sku h900 configs/sweep-ep.json
exit: 2
--- stdout
--- stderr
assay matrix: --sku: unknown value "h900" (known: b200, b300, gb200, gb300, h100, h200, local-cpu, mi300x, mi325x, mi355x)
