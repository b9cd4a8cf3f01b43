# `assay-ep routing` must print exactly the routing derived independently
# (tests/fixtures/unit/gen-ep-kat.py) for 2 tokens per rank at EP 2.
execute_process(COMMAND ${BIN} routing --tokens-per-rank 2 --ep 2
                OUTPUT_VARIABLE out RESULT_VARIABLE rc)
file(READ ${EXPECTED} want)
if(NOT rc EQUAL 0 OR NOT out STREQUAL want)
  message(FATAL_ERROR "assay-ep routing: exit ${rc}, output:\n${out}\nexpected:\n${want}")
endif()
