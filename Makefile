# OpenBench builds engines with `make -j EXE=<name> [CC=<compiler>] [EVALFILE=<network>]`
# (docs/openbench.md). This writes Kestrel as one self-contained file, <name>:
# a CommonJS script behind `#!/usr/bin/env node`, with the book and the
# network inside, that runs from anywhere with nothing beside it.
#
#   make                          writes ./Kestrel
#   make EXE=/tmp/Kestrel-test    writes that file
#   make EVALFILE=<net.nnue>      with that network built in instead of the shipped one
#   make TUNE=1                   a tuning build: every search parameter a UCI option
#
# A branch for SPSA tuning sets TUNE ?= 1 below (OpenBench passes only EXE, CC
# and EVALFILE); `./Kestrel spsa` prints the parameters as OpenBench's input.
#
# CC= (OpenBench passes CC=node) is not used. Needs node (20 or newer), npm and make.

EXE ?= Kestrel
EVALFILE ?=
TUNE ?= 0

.PHONY: all clean

all:
	@test -d node_modules || npm ci --ignore-scripts --no-audit --no-fund
	node scripts/build.mjs --script "$(EXE)" $(if $(EVALFILE),--evalfile "$(EVALFILE)") $(if $(filter 1,$(TUNE)),--tune)

clean:
	rm -f Kestrel
