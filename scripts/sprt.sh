#!/usr/bin/env bash
# Plays a candidate of experiments/ against main, the way the project's SPRTs
# run (docs/strength.md): fastchess, UHO_4060_v4 in random order, 8+0.08,
# Hash 16, both cores, SPRT [0, 5] normalised. The base is main with the
# patches the candidate applies after (its first lines say which), in order.
#
#   scripts/sprt.sh <folder> <srand> <candidate.patch> [<base.patch> ...]
#
# The folder (outside the checkout) gets the two bundles, base.js and
# new.js, fastchess's save (config.json) and the games (games.pgn). A save
# already there resumes the match; else one committed beside the candidate
# (experiments/<name>.fastchess.json) does, so a new machine goes on from
# the last commit's game. Stop it with SIGINT to fastchess (it saves), and
# commit config.json as experiments/<name>.fastchess.json.
set -euo pipefail
[ $# -ge 3 ] || { sed -n 2,14p "$0" >&2; exit 2; }
dir=$(mkdir -p "$1" && cd "$1" && pwd)
srand=$2
candidate=$(realpath "$3")
shift 3
bases=()
for p in "$@"; do bases+=("$(realpath "$p")"); done
root=$(cd "$(dirname "$0")/.." && pwd)
fastchess=${FASTCHESS:-$(command -v fastchess || echo ~/tools/fastchess/fastchess)}
openings="$(cd "$root/.." && pwd)/shared/data/openings/UHO_4060_v4.epd"
[ -x "$fastchess" ] || { echo "no fastchess at $fastchess (set FASTCHESS)" >&2; exit 1; }
[ -f "$openings" ] || { echo "no openings at $openings" >&2; exit 1; }
name=$(basename "$candidate" .patch)
save="$root/experiments/$name.fastchess.json"

# bundle <out.js> <patch...>: main with the patches applied, built as one
# file; its worktree is removed however the build ends.
bundle() (
  out=$1
  shift
  tree=$(mktemp -d)
  trap 'git -C "$root" worktree remove --force "$tree"' EXIT
  git -C "$root" worktree add -q --detach "$tree" HEAD
  for p in "$@"; do git -C "$tree" apply "$p"; done
  ln -s "$root/node_modules" "$tree/node_modules"
  cd "$tree"
  npm run -s build >/dev/null
  echo "$out: $(node dist/kestrel.js bench 2>&1 | grep 'Nodes searched')"
  cp dist/kestrel.js "$dir/$out.part"
  mv "$dir/$out.part" "$dir/$out"
)

cd "$dir"
echo '{ "type": "module" }' > package.json
[ -f base.js ] || bundle base.js ${bases[@]+"${bases[@]}"}
[ -f new.js ] || bundle new.js ${bases[@]+"${bases[@]}"} "$candidate"
if [ ! -f config.json ] && [ -f "$save" ]; then
  # The save names the bundles, openings and games file of the machine it
  # was started on: the candidate first.
  node -e 'const fs = require("fs"); const c = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
    c.engines[0].args = "new.js"; c.engines[1].args = "base.js"; c.opening.file = process.argv[2];
    c.pgn.file = "games.pgn"; c.config_name = "config.json";
    fs.writeFileSync("config.json", JSON.stringify(c, null, 2));' "$save" "$openings"
fi
if [ -f config.json ]; then exec "$fastchess" -config file=config.json; fi
exec "$fastchess" \
  -engine cmd=node args=new.js name="$name" \
  -engine cmd=node args=base.js name=base \
  -each tc=8+0.08 option.Hash=16 \
  -openings file="$openings" format=epd order=random \
  -srand "$srand" -games 2 -rounds 5000 -repeat -concurrency 2 -recover \
  -sprt elo0=0 elo1=5 alpha=0.05 beta=0.1 model=normalized \
  -autosaveinterval 10 -config outname=config.json -ratinginterval 20 \
  -pgnout file=games.pgn
