# The Debian package (`make deb`, scripts/deb.sh; docs/install.md): CPack's
# DEB generator over what `cmake --install` puts under /usr. The version is
# the project's and the git revision (0.1.0+git<12 hex>-1), Depends come from
# the shared libraries the programs link (dpkg-shlibdeps), and the package's
# doc folder gets Debian's copyright and changelog files.
find_program(ASSAY_GIT git)
set(rev "")
if(ASSAY_GIT)
  execute_process(COMMAND ${ASSAY_GIT} -C ${CMAKE_SOURCE_DIR} rev-parse --short=12 HEAD
                  OUTPUT_VARIABLE rev OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
endif()
if(rev)
  set(ASSAY_DEB_VERSION "${PROJECT_VERSION}+git${rev}")
else()
  set(ASSAY_DEB_VERSION "${PROJECT_VERSION}")
endif()

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME assay)
set(CPACK_PACKAGE_VERSION ${ASSAY_DEB_VERSION})
# The maintainer: whoever builds the package (git's user.name and
# user.email), unless ASSAY_DEB_MAINTAINER says otherwise.
set(who "")
if(ASSAY_GIT)
  execute_process(COMMAND ${ASSAY_GIT} -C ${CMAKE_SOURCE_DIR} config user.name
                  OUTPUT_VARIABLE name OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  execute_process(COMMAND ${ASSAY_GIT} -C ${CMAKE_SOURCE_DIR} config user.email
                  OUTPUT_VARIABLE mail OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(name AND mail)
    set(who "${name} <${mail}>")
  endif()
endif()
if(NOT who)
  set(who "assay builder <builder@assay.invalid>")
endif()
set(ASSAY_DEB_MAINTAINER "${who}" CACHE STRING "The package's Maintainer field")
set(CPACK_PACKAGE_CONTACT "${ASSAY_DEB_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "validate GPU clusters and keep their performance honest")
set(CPACK_PACKAGE_DESCRIPTION
    "assay runs benchmark suites (expert-parallel dispatch/combine, nccl-tests'\n\
collectives, training logs), gates their results against thresholds and a\n\
stored history (SQLite or PostgreSQL), detects regressions and writes\n\
reports. The package holds the orchestrator assay, the MPI benchmarks\n\
assay-ep and assay-coll, their man pages, example configs and completions.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_VERSION ${ASSAY_DEB_VERSION})
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# libcrypto is loaded with dlopen (cmake/libcrypto.cmake), so shlibdeps
# cannot see it: the package that holds it (libssl3 on Debian 12) is named
# here, and shlibdeps' list is appended.
find_package(OpenSSL REQUIRED COMPONENTS Crypto)
file(REAL_PATH "${OPENSSL_CRYPTO_LIBRARY}" crypto_real)
execute_process(COMMAND dpkg-query -S "${crypto_real}" OUTPUT_VARIABLE crypto_pkg
                ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
string(REGEX REPLACE "[:,].*" "" crypto_pkg "${crypto_pkg}")
if(NOT crypto_pkg)
  message(FATAL_ERROR "no Debian package holds ${crypto_real} (dpkg-query -S)")
endif()
set(CPACK_DEBIAN_PACKAGE_DEPENDS "${crypto_pkg}")
# mpirun, to launch assay-ep and assay-coll; not a linked library.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "openmpi-bin")
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGE_DIRECTORY ${CMAKE_BINARY_DIR}/package)
set(CPACK_SET_DESTDIR OFF)
set(CPACK_PACKAGING_INSTALL_PREFIX ${CMAKE_INSTALL_PREFIX})
include(CPack)

# Debian's copyright and changelog.Debian.gz, in the package's doc folder.
configure_file(${CMAKE_SOURCE_DIR}/cmake/debian-copyright ${CMAKE_BINARY_DIR}/debian/copyright
               COPYONLY)
string(TIMESTAMP deb_date "%a, %d %b %Y %H:%M:%S +0000" UTC)
file(WRITE ${CMAKE_BINARY_DIR}/debian/changelog.Debian
     "assay (${ASSAY_DEB_VERSION}-1) unstable; urgency=medium\n\n"
     "  * Built from revision ${rev} of the assay sources.\n\n"
     " -- ${CPACK_PACKAGE_CONTACT}  ${deb_date}\n")
add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/debian/changelog.Debian.gz
  COMMAND gzip -9nf -k ${CMAKE_BINARY_DIR}/debian/changelog.Debian
  DEPENDS ${CMAKE_BINARY_DIR}/debian/changelog.Debian)
add_custom_target(assay_debian_files ALL DEPENDS ${CMAKE_BINARY_DIR}/debian/changelog.Debian.gz)
install(FILES ${CMAKE_BINARY_DIR}/debian/copyright
              ${CMAKE_BINARY_DIR}/debian/changelog.Debian.gz
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
