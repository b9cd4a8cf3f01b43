# ROCm/cvs dddd914's mi3xx_megatron_llama_single.json as shipped: CVS's loader refuses a <changeme> anywhere, so does import (exit 2, the JSON path; nothing written)
args: import cvs --user alice --gpu mi325 --out /nonexistent/suite.json tests/fixtures/cli/import/legacy/mi3xx_megatron_llama_single.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/import/legacy/mi3xx_megatron_llama_single.json: $.config.nnodes: "<changeme>" left in the file: fill it in (CVS refuses the config too)
