# What the build generates from the option tables, and what `cmake --install`
# (`make install PREFIX=... DESTDIR=...`) puts where, in the GNU layout
# (docs/install.md):
#   bin/                          assay, assay-ep, assay-coll
#   share/assay/configs/          the example configs and the platform registry
#   share/doc/assay/              README.md and docs/
#   share/man/man1, man5          one page per program and per command; file formats
#   share/bash-completion/completions/, ZSH dir   completions
# Every page and completion is written by the programs themselves from their
# option tables (`PROG --generate`, src/cli/gen*.c) at every build.
include(GNUInstallDirs)
set(ASSAY_ZSH_COMPLETION_DIR "${CMAKE_INSTALL_DATADIR}/zsh/site-functions" CACHE STRING
    "Where zsh completions are installed (Debian: share/zsh/vendor-completions)")
option(ASSAY_GZIP_MAN "Install the man pages gzip-compressed (Debian packages)" OFF)

set(ASSAY_GEN_DIR ${CMAKE_BINARY_DIR}/share)
# File formats: a section-5 page from each doc page (or one of its sections).
set(gen_cmds COMMAND ${CMAKE_COMMAND} -E make_directory ${ASSAY_GEN_DIR}/man/man5
  COMMAND ${CMAKE_COMMAND} -DBIN=$<TARGET_FILE:assay_cli> -DOUT=${ASSAY_GEN_DIR}
          "-DMD=assay-suite|suite files: what assay run reads|${CMAKE_SOURCE_DIR}/docs/suite.md|"
          -DGZIP=${ASSAY_GZIP_MAN} -P ${CMAKE_SOURCE_DIR}/cmake/generate.cmake
  COMMAND ${CMAKE_COMMAND} -DBIN=$<TARGET_FILE:assay_cli> -DOUT=${ASSAY_GEN_DIR}
          "-DMD=assay-thresholds|thresholds files: the bounds assay gate judges rows by|${CMAKE_SOURCE_DIR}/docs/gate.md|Thresholds file"
          -DGZIP=${ASSAY_GZIP_MAN} -P ${CMAKE_SOURCE_DIR}/cmake/generate.cmake)
set(gen_deps assay_cli)
foreach(t assay_cli assay_ep assay_coll)
  if(TARGET ${t})
    list(APPEND gen_cmds COMMAND ${CMAKE_COMMAND} -DBIN=$<TARGET_FILE:${t}> -DOUT=${ASSAY_GEN_DIR}
         -DGZIP=${ASSAY_GZIP_MAN} -P ${CMAKE_SOURCE_DIR}/cmake/generate.cmake)
    list(APPEND gen_deps ${t})
  endif()
endforeach()
add_custom_target(assay_generated ALL ${gen_cmds}
  COMMENT "Man pages and completions from the option tables" VERBATIM)
add_dependencies(assay_generated ${gen_deps})

if(ASSAY_GZIP_MAN)
  set(man_pattern "*.[15].gz")
else()
  set(man_pattern "*.[15]")
endif()
install(DIRECTORY ${ASSAY_GEN_DIR}/man/ DESTINATION ${CMAKE_INSTALL_MANDIR}
        FILES_MATCHING PATTERN "${man_pattern}")
install(DIRECTORY ${ASSAY_GEN_DIR}/bash-completion/completions/
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
install(DIRECTORY ${ASSAY_GEN_DIR}/zsh/ DESTINATION ${ASSAY_ZSH_COMPLETION_DIR})
# configs/ as it is: its suites name each other as configs/..., so a copy of
# the folder runs as the source tree does (docs/install.md).
install(DIRECTORY ${CMAKE_SOURCE_DIR}/configs DESTINATION ${CMAKE_INSTALL_DATADIR}/assay
        USE_SOURCE_PERMISSIONS)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}
        FILES_MATCHING PATTERN "*.md" PATTERN "*.png")
install(FILES ${CMAKE_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})

option(ASSAY_DEB "Configure the Debian package (make deb, cmake/package.cmake)" OFF)
if(ASSAY_DEB)
  include(${CMAKE_SOURCE_DIR}/cmake/package.cmake)
endif()
