# --push sends OpenMetrics text only
args: store export --store /nonexistent/x.db --format csv --push http://127.0.0.1:9091/metrics/job/assay
exit: 2
--- stdout
--- stderr
assay store export: --push needs --format openmetrics
