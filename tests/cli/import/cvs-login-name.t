# {user-id} defaults to the login name (LOGNAME), as CVS's getpass.getuser() takes it
args: import cvs tests/fixtures/gate/cvs/mi325x_megatron_llama-3.3-70b_single.json
env: LOGNAME=bob
exit: 0
--- stdout-grep
"LOG_DIR": "/home/bob/LOGS/megatron"
"DATA_CACHE_PATH": "/home/bob/cache"
"thresholds": "tests/fixtures/gate/cvs/mi325x_megatron_llama-3.3-70b_single_threshold.json"
