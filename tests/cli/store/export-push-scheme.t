# --push takes an http(s) URL
args: store export --store /nonexistent/x.db --format openmetrics --push push.example.com:9091
exit: 2
--- stdout
--- stderr
assay store export: --push: expected an http:// or https:// URL
