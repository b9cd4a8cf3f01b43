# --format, the old spelling of --input-format, still reads the input format,
# with a one-line deprecation note on stderr (issue 18 item 7)
args: parse --format primus tests/fixtures/training/primus-complete.log
exit: 0
--- stdout-grep
^\{"case_id":null,"direction":"lower","metric":"elapsed_ms_per_iter",.*"value":585\.0\}$
--- stderr
assay parse: --format is deprecated; use --input-format
