# a Pushgateway URL with a password would show in ps: refused before anything is read
args: store export --store /nonexistent/x.db --format openmetrics --push https://ci:hunter2@push.example.com/metrics/job/assay
exit: 2
--- stdout
--- stderr
assay store export: --push: a URL with credentials would show in ps and logs; the Pushgateway's own auth is not supported
