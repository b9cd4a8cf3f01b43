# assay_report_assets(VAR ROOT BINDIR): the report's style sheet and script
# (ROOT/src/lib/report/assets) as a generated C file in BINDIR, its path in
# VAR; regenerated when an asset changes. Used by the top-level build and
# the nested fuzz build.
function(assay_report_assets var root bindir)
  set(dir ${root}/src/lib/report/assets)
  set(out ${bindir}/generated/report_assets.c)
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DOUT=${out}
            "-DASSETS=assay_report_css=${dir}/report.css\\;assay_report_js=${dir}/report.js"
            -P ${root}/cmake/embed.cmake
    DEPENDS ${dir}/report.css ${dir}/report.js ${root}/cmake/embed.cmake
    COMMENT "Embedding the report's CSS and JS")
  set(${var} ${out} PARENT_SCOPE)
endfunction()
