# The front door. `make quickstart` and `make check` are the two commands the
# README promises; everything else here is a convenience for developers.
RELEASE_DIR ?= build/release
CHECK_DIR   ?= build/check
JOBS        ?= $(shell nproc 2>/dev/null || echo 2)
CTEST_ARGS  ?=
# make install: where (GNU layout under PREFIX), and a staging root (DESTDIR).
PREFIX      ?= /usr/local
DESTDIR     ?=
DEB_DIR     ?= build/deb

.PHONY: all build quickstart check test deps format clean install deb

all: build

build:
	@scripts/deps.sh build
	@cmake -S . -B $(RELEASE_DIR) -DCMAKE_BUILD_TYPE=Release -DASSAY_TESTS=OFF >/dev/null
	@cmake --build $(RELEASE_DIR) -j $(JOBS) >/dev/null
	@echo "built $(RELEASE_DIR)/bin/assay"

quickstart: build
	@scripts/quickstart.sh $(RELEASE_DIR)

# Sanitized, warnings-as-errors build and the whole test suite through CTest.
check:
	@scripts/deps.sh check
	@cmake -S . -B $(CHECK_DIR) -DCMAKE_BUILD_TYPE=Debug -DASSAY_WERROR=ON -DASSAY_SANITIZE=ON >/dev/null
	@cmake --build $(CHECK_DIR) -j $(JOBS)
	@cd $(CHECK_DIR) && ctest --output-on-failure -j $(JOBS) $(CTEST_ARGS)

# Re-run the tests of an existing check build.
test:
	@cd $(CHECK_DIR) && ctest --output-on-failure -j $(JOBS) $(CTEST_ARGS)

# The three programs, example configs, docs, man pages and completions
# (docs/install.md): make install PREFIX=/opt/assay DESTDIR=/tmp/stage
install:
	@scripts/deps.sh build
	@cmake -S . -B $(RELEASE_DIR) -DCMAKE_BUILD_TYPE=Release -DASSAY_TESTS=OFF \
	  -DCMAKE_INSTALL_PREFIX=$(PREFIX) >/dev/null
	@cmake --build $(RELEASE_DIR) -j $(JOBS) >/dev/null
	@DESTDIR=$(DESTDIR) cmake --install $(RELEASE_DIR)

# The Debian package, lintian-checked: build/deb/package/assay_VERSION_ARCH.deb
deb:
	@scripts/deps.sh build
	@scripts/deb.sh $(DEB_DIR)

format:
	@clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	rm -rf build
