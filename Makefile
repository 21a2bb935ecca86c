# Front door: make build | run | test | bench | install. Each target first runs
# scripts/bootstrap, which installs only what is missing.
# make install builds, then copies the binaries (cuzk, cuzk-bench, and
# cuzk-daemon when built) to $(PREFIX)/bin, cuzk.example.toml to
# $(PREFIX)/share/cuzk and the systemd unit to $(PREFIX)/lib/systemd/system,
# all under $(DESTDIR) when set; install-files does the copy alone.
# make test-sanitized builds everything twice more, under ASan + UBSan
# ($(BUILD)-address) and under TSan ($(BUILD)-thread), and runs every test in
# both (CI does, after make test).
BUILD ?= build
CMAKE_FLAGS ?=
JOBS ?= $(shell nproc)
PREFIX ?= /usr/local
DESTDIR ?=

.PHONY: all bootstrap build run test test-sanitized bench install install-files clean

all: build

bootstrap:
	@scripts/bootstrap

build: bootstrap
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

run: build
	scripts/run-default $(BUILD)

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

test-sanitized: bootstrap
	@for s in address thread; do \
	  echo "== tests under the $$s sanitizer ($(BUILD)-$$s)"; \
	  cmake -S . -B $(BUILD)-$$s -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCUZK_SANITIZE=$$s $(CMAKE_FLAGS) >/dev/null && \
	  cmake --build $(BUILD)-$$s -j $(JOBS) && \
	  (cd $(BUILD)-$$s && ctest --output-on-failure -j $(JOBS)) || exit 1; \
	done

bench: build
	$(BUILD)/bin/cuzk-bench --json $(BUILD)/bench.json

install: build
	@$(MAKE) --no-print-directory install-files

install-files:
	DESTDIR="$(DESTDIR)" cmake --install $(BUILD) --prefix "$(PREFIX)"

clean:
	rm -rf $(BUILD) $(BUILD)-address $(BUILD)-thread
