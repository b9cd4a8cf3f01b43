# a token pasted as a key is not printed in the error's JSON path
args: matrix --platforms configs/platforms.json tests/fixtures/cli/matrix/token-key.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/matrix/token-key.json: $.workload.[redacted]: unknown key (expected one of: name, hidden, topk, experts, seed, token_ladders)
