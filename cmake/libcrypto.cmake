# libcrypto (SHA-256) is loaded when assay first hashes, not at start-up:
# most commands (detect, history, report) never hash, and loading it at
# start-up costs about 1 ms of the 10 ms `assay detect` over 100 series takes.
# assay_use_libcrypto(TARGET): TARGET gets OpenSSL's headers and the SONAME
# to dlopen (ASSAY_LIBCRYPTO, "libcrypto.so.3" on Debian 12), no link.
function(assay_use_libcrypto target)
  find_package(OpenSSL REQUIRED COMPONENTS Crypto)
  file(REAL_PATH "${OPENSSL_CRYPTO_LIBRARY}" real)
  get_filename_component(soname "${real}" NAME)
  find_program(ASSAY_OBJDUMP objdump)
  if(ASSAY_OBJDUMP)
    execute_process(COMMAND ${ASSAY_OBJDUMP} -p "${real}" OUTPUT_VARIABLE dyn ERROR_QUIET)
    if(dyn MATCHES "SONAME[ \t]+([^ \t\r\n]+)")
      set(soname "${CMAKE_MATCH_1}")
    endif()
  endif()
  target_include_directories(${target} PRIVATE ${OPENSSL_INCLUDE_DIR})
  target_compile_definitions(${target} PRIVATE ASSAY_LIBCRYPTO="${soname}")
  target_link_libraries(${target} PUBLIC ${CMAKE_DL_LIBS})
endfunction()
