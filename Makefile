# OpenBench builds engines with `make -j EXE=<name> [CC=<compiler>] [EVALFILE=<network>]`
# (docs/openbench.md). This writes Kestrel as one self-contained file, <name>:
# a CommonJS script behind `#!/usr/bin/env node`, with the book and the
# network inside, that runs from anywhere with nothing beside it.
#
#   make                          writes ./Kestrel
#   make EXE=/tmp/Kestrel-test    writes that file
#   make EVALFILE=<net.nnue>      with that network built in instead of the shipped one
#
# CC= (OpenBench passes CC=node) is not used. Needs node (20 or newer), npm and make.

EXE ?= Kestrel
EVALFILE ?=

.PHONY: all clean

all:
	@test -d node_modules || npm ci --ignore-scripts --no-audit --no-fund
	node scripts/build.mjs --script "$(EXE)" $(if $(EVALFILE),--evalfile "$(EVALFILE)")

clean:
	rm -f Kestrel
