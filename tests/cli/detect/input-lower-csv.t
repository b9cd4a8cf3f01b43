# --direction lower: a latency that went up is a regression; CSV output
args: detect --input tests/fixtures/detect/latency.csv --direction lower --format csv
exit: 0
--- stdout-grep
^series_key,index,revision,previous_revision,timestamp,mean_before,stddev_before,n_before,mean_after,stddev_after,n_after,change_percent,pvalue,kind,annotation,direction,unit,series$
^tests/fixtures/detect/latency.csv,40,r040,r039,2026-09-13T00:00:00Z,20.01025,[0-9.]+,40,20.9585,[0-9.]+,20,4.73882[0-9]+,[0-9.e-]+,regression,,lower,value,$
--- stderr
