#!/bin/sh
# docs/xboard.png: XBoard (Debian's xboard 4.9, which runs UCI engines through
# its Polyglot adapter, -fUCI) plays Kestrel against itself on a virtual
# screen (Xvfb); part-way through the game, a picture of the board, the two
# engines' output and the moves.
#
#   scripts/xboard-screenshot.sh <engine> [<out.png>] [<seconds before the picture>]
#
# <engine> is the command XBoard starts: a release's Linux executable, or
# "node /full/path/to/dist/kestrel.js". Needs the Debian packages xvfb,
# xboard, polyglot, x11-apps (xwd), xdotool and imagemagick (convert).
set -eu
engine=$1
out=${2:-docs/xboard.png}
seconds=${3:-45}
PATH=$PATH:/usr/games
work=$(mktemp -d)
xvfb=
xboard=
cleanup() {
  # XBoard stops its engines and saves the game as it ends: wait for it before the screen goes.
  if [ -n "$xboard" ]; then kill "$xboard" 2>/dev/null || true; wait "$xboard" || true; fi
  if [ -n "$xvfb" ]; then kill "$xvfb" 2>/dev/null || true; wait "$xvfb" || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# A free display: Xvfb writes the number it chose to the file.
Xvfb -displayfd 3 -screen 0 1024x768x24 -nolisten tcp 3>"$work/display" 2>"$work/xvfb.log" &
xvfb=$!
while [ ! -s "$work/display" ]; do sleep 0.2; done
DISPLAY=:$(cat "$work/display")
export DISPLAY

xboard -fcp "$engine" -fd "$work" -fUCI -scp "$engine" -sd "$work" -sUCI \
  -mg 1 -tc 1 -inc 0.5 -adjudicateDrawMoves 60 -coords -xexit \
  -saveSettingsFile "$work/xboardrc" -saveSettingsOnExit false -sgf "$work/game.pgn" \
  -engineOutputUp true -engineOutputW 590 -engineOutputH 300 \
  -moveHistoryUp true -moveHistoryW 590 -moveHistoryH 160 >"$work/xboard.log" 2>&1 &
xboard=$!

# Without a window manager every window opens at the top left: put the engines' output and the moves beside the board.
xdotool search --sync --name '^Engine Output$' windowmove 428 0
xdotool search --sync --name '^Move list$' windowmove 428 304
sleep "$seconds"
xwd -root -silent | convert xwd:- -crop 1018x490+0+0 +repage -colors 128 -strip "$out"
echo "$out: $(wc -c <"$out") bytes"
