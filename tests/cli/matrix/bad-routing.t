# a routing assay-ep would refuse is refused at load, located
args: matrix --platforms configs/platforms.json tests/fixtures/cli/matrix/bad-routing.json
exit: 2
--- stdout
--- stderr
tests/fixtures/cli/matrix/bad-routing.json: $.routing[1]: expected uniform, zipf:S (S from 0 to 4), hot:K:P (1 <= K < experts (256), 0 < P < 1) or file:PATH, got "hot:256:0.5"
