# goodput = successful / (successful + failed) when the block prints
# "Failed requests:" (CVS's sglang_common.py): 90 / 100, ahead of the
# context's num_prompts.
args: parse tests/fixtures/sglang/failed-requests.log --series num_prompts=640
exit: 0
--- stdout-grep
"metric":"goodput".*"value":0.9[,}]
--- stderr
