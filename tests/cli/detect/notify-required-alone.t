# --notify-required without a targets file
args: detect --store /nonexistent/x.db --notify-required
exit: 2
--- stdout
--- stderr
assay detect: --notify-required needs --notify FILE (or ASSAY_NOTIFY)
