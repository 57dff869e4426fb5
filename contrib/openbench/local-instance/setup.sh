#!/usr/bin/env bash
# A whole OpenBench instance on localhost for Kestrel (docs/openbench.md,
# "A whole instance on one machine"): copies an OpenBench checkout to <dir>,
# applies the two local patches, configures Kestrel and one book, creates the
# database and an enabled user `kestrel`. Debian 12: apt-get install
# python3-django python3-numpy python3-scipy python3-requests python3-psutil python3-cpuinfo
#
#   contrib/openbench/local-instance/setup.sh <OpenBench checkout> <dir> <Kestrel repository> [<book.epd>]
#
# The book defaults to the repository's test/data/uho-sample.epd (300 openings);
# zipserver.py must be given the same file.
set -euo pipefail
src=$(realpath "$1"); dir=$2; kestrel=$(realpath "$3")
book=$(realpath "${4:-$kestrel/test/data/uho-sample.epd}"); book_name=$(basename "$book")
here=$(dirname "$(realpath "$0")")
rm -rf "$dir"; mkdir -p "$dir"
git -C "$src" archive HEAD | tar -x -C "$dir"
cd "$dir"

# Patch 1: Debian has no django-htmlmin (the pages are served unminified).
sed -i '/htmlmin/d' OpenSite/settings.py

# Patch 2: branches, commits and benches from a local git repository, and the
# source zip from the local zip server, instead of GitHub's API.
/usr/bin/python3 - <<'PY'
p = 'OpenBench/workloads/verify_workload.py'
s = open(p).read()
anchor = '    try: # Fetch data from the Github API\n'
patch = '''    # LOCAL PATCH (Kestrel docs/openbench.md): with OPENBENCH_LOCAL_GIT, branches and
    # commits come from that git repository, and the source zip from OPENBENCH_LOCAL_ZIP.
    if os.environ.get('OPENBENCH_LOCAL_GIT'):
        import subprocess
        repo = os.environ['OPENBENCH_LOCAL_GIT']
        git  = lambda *a: subprocess.run(['git', '-C', repo, *a], capture_output=True, text=True, check=True).stdout.strip()
        try: sha = git('rev-parse', branch + '^{commit}')
        except Exception:
            errors.append('%s could not be found' % (branch or 'Branch'))
            return
        message = git('log', '-1', '--format=%B', sha)
        if not (bench := determine_bench(request, field, message)):
            errors.append('Unable to parse a Bench for %s' % (branch))
            return
        info = request.POST['info'] or strip_message(message)
        return ('%s/%s.zip' % (os.environ['OPENBENCH_LOCAL_ZIP'], sha), branch, sha, bench, info)

'''
assert s.count(anchor) == 1
open(p, 'w').write(s.replace(anchor, patch + anchor))
PY

# Configuration: Kestrel only, one book served by the zip server.
BOOK_NAME=$book_name /usr/bin/python3 - <<'PY'
import json, os
c = json.load(open('Config/config.json'))
c['engines'], c['books'] = ['Kestrel'], [os.environ['BOOK_NAME']]
json.dump(c, open('Config/config.json', 'w'), indent=4)
PY
sed "s#https://github.com/OWNER/kestrel#https://github.com/local/kestrel#; s#UHO_Lichess_4852_v1.epd#$book_name#" \
  "$kestrel/contrib/openbench/Kestrel.json" > Engines/Kestrel.json
sha=$(sha256sum "$book" | cut -d' ' -f1)
printf '{ "sha": "%s", "source": "http://127.0.0.1:8001/%s.zip" }\n' "$sha" "$book_name" > "Books/$book_name.json"

/usr/bin/python3 manage.py migrate > /dev/null 2>&1 # the PGN watcher thread complains while the tables are made
/usr/bin/python3 manage.py shell -c "
from django.contrib.auth.models import User
from OpenBench.models import Profile
Profile.objects.create(user=User.objects.create_user('kestrel', 'k@localhost', 'kestrel-local-pass'), enabled=True, approver=True)"

cp -r Client ../openbench-client

# Patch 3: the client ends a workload's processes with `pkill -KILL -f <name>`
# (fastchess-ob, the engines), which reaches every process on the machine whose
# command line holds the name. Here it ends only the client's own descendants.
/usr/bin/python3 - <<'PY'
p = '../openbench-client/utils.py'
s = open(p).read()
old = """    if IS_LINUX:
        subprocess.run(['pkill', '-KILL', '-f', process_name])
"""
new = """    if IS_LINUX: # LOCAL PATCH (Kestrel docs/openbench.md): only this client's own processes
        import psutil
        for child in psutil.Process().children(recursive=True):
            try:
                if process_name in ' '.join(child.cmdline()): child.kill()
            except psutil.Error: pass
"""
assert s.count(old) == 1
open(p, 'w').write(s.replace(old, new))
PY
cat <<EOT
Ready. Then, each in its own shell (all on 127.0.0.1):
  /usr/bin/python3 $here/zipserver.py <Kestrel git repository>                      # port 8001
  cd $dir && OPENBENCH_LOCAL_GIT=<Kestrel git repository> OPENBENCH_LOCAL_ZIP=http://127.0.0.1:8001 \\
    /usr/bin/python3 manage.py runserver 127.0.0.1:8000 --noreload
  cp <fastchess> $(dirname "$dir")/openbench-client/fastchess-ob && cd $(dirname "$dir")/openbench-client && \\
    /usr/bin/python3 client.py -U kestrel -P kestrel-local-pass -S http://127.0.0.1:8000 -T 2 -N 1 --no-client-downloads
  /usr/bin/python3 $here/create.py TEST | DATAGEN | TUNE inputs=<spsa.txt> dev_branch=tune base_branch=tune
EOT
