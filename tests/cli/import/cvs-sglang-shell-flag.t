# ROCm/cvs dddd914's SGLang config with an add_flags entry that is shell text
# (tests/fixtures/inference/cvs/SOURCE.md): CVS writes add_flags into a bash
# script; the server's argv is plain words, so the import refuses it, naming it
args: import cvs --user alice tests/fixtures/inference/cvs/sglang_shell_flag.json
exit: 2
--- stdout
--- stderr
tests/fixtures/inference/cvs/sglang_shell_flag.json: $.benchmark_params.llama-70b.add_flags[1]: "--chunked-prefill-size $CHUNK" is shell text (CVS's launch script runs it through bash); the server's argv takes plain words: write what it stands for
