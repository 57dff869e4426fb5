# One command for a whole local OpenBench instance (docs/openbench.md): stands
# it up from an OpenBench checkout (setup.sh), starts the zip server, the
# server and one client, submits one workload (create.py), waits for its end,
# checks it, and stops every process it started, by process group.
#
#   run.py --openbench <checkout> --fastchess <binary> [--dir <dir>] [--threads 2]
#          [--timeout-min 120] TEST|TUNE|DATAGEN [field=value ...]
#   run.py ... --dir <dir> --resume <workload> TEST|TUNE|DATAGEN [field=value ...]
#
# --resume starts the instance already in --dir again and waits for one of its
# workloads instead of submitting a new one: a run longer than a sitting (an
# SPSA of thousands of games) goes on where it stopped, less the games that
# were being played. The fields then only name the branches for the checks.
#
# The checks: each bench the client ran printed the node count of the
# commit's `Bench:` line, the server logged no error for the workload, the
# workload finished with games played, and no game crashed or was lost on
# time. Exit status 0 when all hold. A tune prints its values at the end.
# Debian 12: apt-get install python3-django python3-numpy python3-scipy
# python3-requests python3-psutil python3-cpuinfo.
import argparse, json, os, re, signal, subprocess, sys, tempfile, time

import requests

HERE = os.path.dirname(os.path.realpath(__file__))
REPO = os.path.realpath(os.path.join(HERE, '..', '..', '..'))
sys.path.insert(0, HERE)
import create  # noqa: E402

p = argparse.ArgumentParser(description='A local OpenBench instance: one workload, start to end.')
p.add_argument('--openbench', required=True, help='an OpenBench checkout or bare clone (git archive HEAD is used)')
p.add_argument('--fastchess', required=True, help='a fastchess binary; the client runs a copy named fastchess-ob')
p.add_argument('--dir', help='where the instance goes (default: a new temporary folder); made afresh')
p.add_argument('--book', default=os.path.join(REPO, 'test/data/uho-sample.epd'), help='EPD openings (default: the 300 of test/data/uho-sample.epd)')
p.add_argument('--threads', type=int, default=2, help="the client's threads (games at once)")
p.add_argument('--resume', type=int, metavar='WORKLOAD', help='go on with this workload of the instance in --dir (no setup, no submission)')
p.add_argument('--timeout-min', type=float, default=120, help='give up after this many minutes')
p.add_argument('kind', choices=['TEST', 'TUNE', 'DATAGEN'])
p.add_argument('fields', nargs='*', help='form fields as name=value (create.py): dev_branch=..., test_mode=GAMES test_max_games=16, ...')
args = p.parse_args()

if args.resume is not None and not args.dir:
    raise SystemExit('--resume needs the --dir of the instance')
base = os.path.realpath(args.dir or tempfile.mkdtemp(prefix='openbench-local-'))
server_dir, client_dir = os.path.join(base, 'server'), os.path.join(base, 'openbench-client')
if args.resume is None:
    os.makedirs(base, exist_ok=True)
    subprocess.run(['rm', '-rf', server_dir, client_dir], check=True)
    subprocess.run(['bash', os.path.join(HERE, 'setup.sh'), args.openbench, server_dir, REPO, args.book], check=True, stdout=subprocess.DEVNULL)
elif not os.path.isdir(server_dir):
    raise SystemExit('no instance in %s to resume' % base)
subprocess.run(['cp', args.fastchess, os.path.join(client_dir, 'fastchess-ob')], check=True)

started = []  # (name, Popen); each leads its own process group


def start(name, cmd, cwd, env=None):
    log = open(os.path.join(base, name + '.log'), 'a' if args.resume is not None else 'w')
    proc = subprocess.Popen(cmd, cwd=cwd, env={**os.environ, 'PYTHONUNBUFFERED': '1', **(env or {})}, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    started.append((name, proc))
    print('started %s (pid %d), log %s' % (name, proc.pid, log.name), flush=True)


def stop_all():
    for name, proc in reversed(started):
        if proc.poll() is None:
            try: os.killpg(proc.pid, signal.SIGTERM)
            except ProcessLookupError: pass
    deadline = time.time() + 10
    for name, proc in reversed(started):
        try: proc.wait(max(0.1, deadline - time.time()))
        except subprocess.TimeoutExpired:
            try: os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError: pass
            proc.wait()
        print('stopped %s (pid %d)' % (name, proc.pid), flush=True)


def manage(code):
    """Runs Python in the server's Django shell and returns what it prints."""
    return subprocess.run(['/usr/bin/python3', 'manage.py', 'shell', '-c', code], cwd=server_dir, capture_output=True, text=True, check=True).stdout


def bench_of(branch):
    message = subprocess.run(['git', '-C', REPO, 'log', '-1', '--format=%B', branch], capture_output=True, text=True, check=True).stdout
    found = re.findall(r'(?:BENCH|NODES)[ :=]+([0-9,]+)', message.upper())
    return int(found[-1].replace(',', '')) if found else None


fields = dict(f.split('=', 1) for f in args.fields)
fields.setdefault('book_name', os.path.basename(args.book))
python = '/usr/bin/python3'
problems = []
try:
    start('zipserver', [python, os.path.join(HERE, 'zipserver.py'), REPO, os.path.realpath(args.book)], base)
    start('server', [python, 'manage.py', 'runserver', '127.0.0.1:8000', '--noreload'], server_dir,
          {'OPENBENCH_LOCAL_GIT': REPO, 'OPENBENCH_LOCAL_ZIP': 'http://127.0.0.1:8001'})
    for _ in range(120):
        try:
            requests.get(create.S + '/login/', timeout=2)
            break
        except requests.RequestException: time.sleep(0.5)
    newest = "from OpenBench.models import Test\nt = Test.objects.order_by('-id').first()\nprint(t.id if t else 0)"
    if args.resume is None:
        before = int(manage(newest).split()[-1])
        url, messages = create.submit(args.kind, fields.items())
        workload = int(manage(newest).split()[-1])
        if workload == before:
            raise SystemExit('the server did not take the workload: %s' % ('; '.join(messages) or 'no message'))
    else:
        workload = args.resume
    print('workload %d: %s/%s/%d/' % (workload, create.S, args.kind.lower(), workload), flush=True)
    start('client', [python, 'client.py', '-U', 'kestrel', '-P', 'kestrel-local-pass', '-S', create.S, '-T', str(args.threads), '-N', '1',
                     '--no-client-downloads'], client_dir)

    query = '''import json
from django.db.models import Sum
from OpenBench.models import Test, Result, LogEvent
t = Test.objects.get(id=%d)
r = Result.objects.filter(test=t).aggregate(crashes=Sum('crashes'), timeloss=Sum('timeloss'))
print(json.dumps(dict(finished=t.finished, passed=t.passed, failed=t.failed, games=t.games, wins=t.wins, losses=t.losses, draws=t.draws,
    crashes=r['crashes'] or 0, timeloss=r['timeloss'] or 0, errors=[e.summary for e in LogEvent.objects.filter(test_id=t.id).exclude(machine_id=0)])))''' % workload
    deadline, last = time.time() + args.timeout_min * 60, None
    while True:
        state = json.loads(manage(query).strip().splitlines()[-1])
        line = '%(games)d games (+%(wins)d -%(losses)d =%(draws)d), %(crashes)d crashes, %(timeloss)d time losses' % state
        if line != last: print(time.strftime('%H:%M:%S'), line, flush=True)
        last = line
        if state['finished']: break
        if started[-1][1].poll() is not None: problems.append('the client stopped (see client.log)'); break
        if time.time() > deadline: problems.append('not finished after %g minutes' % args.timeout_min); break
        time.sleep(15)

    print('finished: %s' % ('passed' if state['passed'] else 'failed' if state['failed'] else 'yes' if state['finished'] else 'no'))
    problems += ['server error (its Errors page): ' + e for e in state['errors']]
    if state['games'] == 0: problems.append('no games played')
    if state['crashes']: problems.append('%d games crashed' % state['crashes'])
    if state['timeloss']: problems.append('%d games lost on time' % state['timeloss'])
    # The benches: each the client ran against the Bench: line of the commit it built.
    client_log = open(os.path.join(base, 'client.log')).read()
    benches = [int(n) for n in re.findall(r'^Bench for \S+ is (\d+)', client_log, re.M)]
    expected = {bench_of(fields.get(side + '_branch', 'main')) for side in ('dev', 'base')}
    print('benches: client %s, commits %s' % (sorted(set(benches)), sorted(e for e in expected if e is not None)))
    if args.kind == 'TUNE':
        values = manage('import OpenBench.spsa_utils\nfrom OpenBench.models import Test\n'
                        'print(OpenBench.spsa_utils.spsa_optimal_values(Test.objects.get(id=%d)))' % workload)
        open(os.path.join(base, 'spsa-values.txt'), 'w').write(values)
        print('the tune\'s values (also in %s):\n%s' % (os.path.join(base, 'spsa-values.txt'), values.rstrip()))
    if not benches: problems.append('the client ran no bench')
    problems += ['bench %d is not a commit\'s Bench: line' % b for b in set(benches) if b not in expected]
finally:
    stop_all()

for problem in problems: print('problem:', problem)
print('all passed' if not problems else '%d problem(s); the instance is in %s' % (len(problems), base))
sys.exit(1 if problems else 0)
