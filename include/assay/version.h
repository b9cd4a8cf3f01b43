/* Version and git revision, stamped at build time by cmake/version.cmake. */
#ifndef ASSAY_VERSION_H
#define ASSAY_VERSION_H

extern const char assay_version_string[];
extern const char assay_git_revision[];

#endif
