# Man pages and shell completions of one program, generated from its option
# tables by the program itself (`PROG --generate`, src/cli/gen.c), run at
# every build by CMakeLists.txt (assay_generated):
#   cmake -DBIN=path/to/prog -DOUT=build/share -P cmake/generate.cmake
# writes OUT/man/man1/PAGE.1 for every page the program names, and
# OUT/bash-completion/completions/PROG and OUT/zsh/_PROG. Files whose text
# did not change keep their time stamps.
cmake_policy(SET CMP0007 NEW)
get_filename_component(prog ${BIN} NAME)
set(ENV{ASAN_OPTIONS} detect_leaks=0)

function(generate out)
  execute_process(COMMAND ${BIN} --generate ${ARGN} OUTPUT_VARIABLE text RESULT_VARIABLE rc
                  ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${prog} --generate ${ARGN}: exit ${rc}: ${err}")
  endif()
  set(old "")
  if(EXISTS ${out})
    file(READ ${out} old)
  endif()
  if(NOT old STREQUAL text)
    file(WRITE ${out} "${text}")
  endif()
  # -DGZIP=ON: the man pages also gzip-compressed, as Debian installs them.
  if(GZIP AND out MATCHES "\\.[15]$" AND (NOT EXISTS ${out}.gz OR ${out} IS_NEWER_THAN ${out}.gz))
    execute_process(COMMAND gzip -9nf -k ${out} RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "gzip ${out}: exit ${rc}")
    endif()
  endif()
endfunction()

# -DMD="PAGE|SUMMARY|FILE.md|HEADING": only that section-5 page.
if(DEFINED MD)
  string(REPLACE "|" ";" md "${MD}")
  list(GET md 0 page)
  list(GET md 1 summary)
  list(GET md 2 file)
  list(LENGTH md n)
  set(heading "")
  if(n GREATER 3)
    list(GET md 3 heading)
  endif()
  if(heading)
    generate(${OUT}/man/man5/${page}.5 man-md ${page} "${summary}" ${file} "${heading}")
  else()
    generate(${OUT}/man/man5/${page}.5 man-md ${page} "${summary}" ${file})
  endif()
  return()
endif()

execute_process(COMMAND ${BIN} --generate man-pages OUTPUT_VARIABLE pages RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${prog} --generate man-pages: exit ${rc}")
endif()
string(REPLACE "\n" ";" pages "${pages}")
foreach(page ${pages})
  if(page)
    generate(${OUT}/man/man1/${page}.1 man ${page})
  endif()
endforeach()
generate(${OUT}/bash-completion/completions/${prog} completion bash)
generate(${OUT}/zsh/_${prog} completion zsh)
