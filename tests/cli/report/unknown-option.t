# unknown options are refused
args: report --html-only
exit: 2
--- stdout
--- stderr
assay report: unknown option '--html-only' (see 'assay help report')
