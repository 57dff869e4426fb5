#!/usr/bin/python3
# Runs OpenBench's own client code against Kestrel on this machine, as a
# client would for a workload (docs/openbench.md, "Proof"):
#
#   1. the compiler check (worker.Configuration.scan_for_compilers, node>=20);
#   2. utils.prepare_engine: download the commit's source as a zip (served
#      here from localhost, `git archive` of HEAD, as GitHub's zipball),
#      unzip, `make -j EXE=<name> CC=node` as makefile_command composes it,
#      move <name> to Engines/ and delete the source tree; once more with
#      EVALFILE= (the built-in network as a file, as a test's uploaded one);
#   3. bench.run_benchmark(<engine>, threads, 1, expected): one bench copy
#      per thread at once, all the same node count, the commit's bench;
#   4. genfens.create_genfens_opening_book: N openings per thread, then
#      checks the book it wrote (distinct EPD lines, N x threads of them);
#   5. with --fastchess <binary>: a DATAGEN workload's games, played by the
#      fastchess command worker.build_runner_command composes (nodes=2000,
#      from that book), compressed by pgn_util.compress_pgn_files (COMPACT
#      and VERBOSE) and archived as the server's PGN watcher does (tarfile,
#      `<test>.<result>.<book index>.pgn.bz2` members of `<test>.pgn.tar`);
#      the engine's `convert-pgn` turns the archive into viriformat and
#      `train` runs one small epoch on it. --archive-out keeps the archive.
#
# The functions are imported from an OpenBench checkout, not copied:
#
#   /usr/bin/python3 scripts/openbench-proof.py <OpenBench checkout> [--threads 2] [--genfens 50]
#
# Needs Debian's python3-requests, python3-psutil and python3-cpuinfo (what
# the client imports), git, make, node and npm. Works in a temporary folder.

import argparse
import hashlib
import http.server
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import types

KESTREL = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def git(*args, cwd=KESTREL):
    return subprocess.run(['git', *args], cwd=cwd, check=True, capture_output=True, text=True).stdout.strip()


def serve(directory):
    """An HTTP server on localhost for the source zip; returns its base URL."""
    handler = lambda *a, **k: http.server.SimpleHTTPRequestHandler(*a, directory=directory, **k)
    http.server.SimpleHTTPRequestHandler.log_message = lambda *a: None
    server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return 'http://127.0.0.1:%d' % server.server_address[1]


def built_in_network(path):
    """src/eval/nnue/embedded-net.ts's network written as a file; returns its OpenBench sha (8 hex digits)."""
    import base64
    text = open(os.path.join(KESTREL, 'src/eval/nnue/embedded-net.ts')).read()
    data = base64.b64decode(''.join(re.findall(r"^\s*'([A-Za-z0-9+/=]+)',$", text, re.M)))
    sha = hashlib.sha256(data).hexdigest()[:8].upper()
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, sha), 'wb') as f:
        f.write(data)
    return sha


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('openbench', help='an OpenBench checkout (its Client/ is imported)')
    parser.add_argument('--threads', type=int, default=2)
    parser.add_argument('--genfens', type=int, default=50, help='openings per thread')
    parser.add_argument('--fastchess', help='a fastchess binary: also play and convert a small datagen workload')
    parser.add_argument('--games', type=int, default=4, help='datagen games, per PGN member')
    parser.add_argument('--archive-out', help='where to copy the datagen archive (<id>.pgn.tar)')
    args = parser.parse_args()

    openbench = os.path.abspath(args.openbench)
    sys.path.insert(0, os.path.join(openbench, 'Client'))
    import bench
    import genfens
    import pgn_util
    import utils
    import worker

    commit = git('rev-parse', 'HEAD')
    message = git('log', '-1', '--format=%B')
    # The server's pattern for a commit's bench (OpenBench/workloads/verify_workload.py, determine_bench).
    expected = int(re.findall('(?:BENCH|NODES)[ :=]+([0-9,]+)', message, re.IGNORECASE)[-1].replace(',', ''))
    print('OpenBench commit %s' % git('rev-parse', 'HEAD', cwd=openbench))
    print('Kestrel commit   %s (bench %d in its message)' % (commit, expected))
    print('python %s, node %s' % (sys.version.split()[0], subprocess.run(['node', '--version'], capture_output=True, text=True).stdout.strip()))

    work = tempfile.mkdtemp(prefix='openbench-proof-')
    os.chdir(work)
    for folder in ('Engines', 'Books', 'Networks', 'site'):
        os.makedirs(folder, exist_ok=True)

    # 1. The compiler check, as the client makes it for each engine of the server's config.
    config = types.SimpleNamespace(compilers={})
    worker.Configuration.scan_for_compilers(config, {'Kestrel': {'compilers': ['node>=20']}})
    compiler = config.compilers['Kestrel'][0]

    # 2. The build, from a zip of the commit's source served over HTTP.
    git('archive', '--format=zip', '--prefix=Kestrel-%s/' % commit, '-o', os.path.join(work, 'site', commit + '.zip'), commit)
    source = '%s/%s.zip' % (serve(os.path.join(work, 'site')), commit)
    name = utils.engine_binary_name('Kestrel', commit, None)
    print('\nmake command: %s' % ' '.join(utils.makefile_command(None, '', name, compiler)))
    started = time.time()
    built = utils.prepare_engine('Kestrel', None, 'openbench', source, '', os.path.join('Engines', name), False, compiler)
    print('built %s in %.1f s: %d bytes, %s' % (built, time.time() - started, os.path.getsize('Engines/' + built), os.listdir('Engines')))

    net_sha = built_in_network('Networks')
    net_path = os.path.join('Networks', net_sha)
    net_name = utils.engine_binary_name('Kestrel', commit, net_path)
    print('\nmake command: %s' % ' '.join(utils.makefile_command(net_path, '', net_name, compiler)))
    started = time.time()
    net_built = utils.prepare_engine('Kestrel', net_path, 'openbench', source, '', os.path.join('Engines', net_name), False, compiler)
    print('built %s in %.1f s: %d bytes' % (net_built, time.time() - started, os.path.getsize('Engines/' + net_built)))

    # 3. The benches, one copy per thread at once, as before every workload.
    for engine in (built, net_built):
        started = time.time()
        speed, nodes = bench.run_benchmark(os.path.join('Engines', engine), args.threads, 1, expected)
        print('\nrun_benchmark(%s, threads=%d): bench %d, nps %d (%.1f s)' % (engine, args.threads, nodes, speed, time.time() - started))

    # 4. A data generation's opening book, one genfens process per thread.
    book = os.path.join('Books', 'openbench.genfens.epd')
    with open(book, 'w') as fout:
        genfens.create_genfens_opening_book({
            'N': args.genfens,
            'book': 'None',
            'seeds': [1234567 + 1000 * i for i in range(args.threads)],
            'extra': '',
            'engine': os.path.join('Engines', built),
            'threads': args.threads,
            'output': fout,
        })
    lines = open(book).read().splitlines()
    print('%s: %d lines, %d distinct; first: %s' % (book, len(lines), len(set(lines)), lines[0]))
    assert len(lines) == args.genfens * args.threads and len(set(lines)) == len(lines)

    if args.fastchess:
        datagen(args, os.path.join('Engines', built), worker, pgn_util, genfens)

    shutil.rmtree(work)
    print('\nall passed')


def datagen(args, engine, worker, pgn_util, genfens):
    """A small DATAGEN workload, as a client and the server handle it, then convert-pgn and train."""
    import tarfile
    os.symlink(os.path.abspath(args.fastchess), 'fastchess-ob')
    os.makedirs('PGNs', exist_ok=True)
    test_id = 46
    members = []
    for result_id, compact in ((1, True), (2, False)):
        workload = {
            'test': {
                'id': test_id, 'type': 'DATAGEN', 'play_reverses': False, 'book': {'name': 'NONE'},
                'win_adj': 'None', 'draw_adj': 'None', 'syzygy_adj': 'DISABLED', 'syzygy_wdl': 'DISABLED',
                'dev': {'engine': 'Kestrel', 'options': 'Threads=1 Hash=16', 'time_control': 'N=2000'},
                'base': {'engine': 'Kestrel', 'options': 'Threads=1 Hash=16', 'time_control': 'N=2000'},
                'genfens_seeds': [result_id], 'genfens_args': '',
                'upload_pgns': 'COMPACT' if compact else 'VERBOSE',
            },
            'result': {'id': result_id},
            'distribution': {'runner-count': 1, 'concurrency-per': 1, 'rounds-per-runner': args.games},
        }
        config = types.SimpleNamespace(workload=workload, threads=1, syzygy_max=None)
        # The client's genfens book for this workload, then its fastchess command.
        with open(os.path.join('Books', 'openbench.genfens.epd'), 'w') as fout:
            genfens.create_genfens_opening_book({
                'N': genfens.genfens_required_openings_each(config), 'book': genfens.genfens_book_input_name(config),
                'seeds': workload['test']['genfens_seeds'], 'extra': '', 'engine': engine, 'threads': 1, 'output': fout,
            })
        timestamp = time.time()
        name = os.path.basename(engine)
        command = worker.build_runner_command(config, name, name, 1.0, timestamp, 0)
        print('\n%s' % command)
        subprocess.run(worker.shlex.split(command), check=True, stdout=subprocess.DEVNULL)
        pgn = worker.MatchRunner.pgn_name(config, timestamp, 0)
        member = '%d.%d.%d.pgn.bz2' % (test_id, result_id, 0)
        with open(member, 'wb') as f:
            f.write(pgn_util.compress_pgn_files([pgn], 1.0, compact))
        members.append(member)
    # The server's PGN watcher: one tar per test, members added as they come.
    archive = '%d.pgn.tar' % test_id
    for i, member in enumerate(members):
        with tarfile.open(archive, 'a' if i else 'w') as tar:
            tar.add(member, arcname=member)
    print('%s: %d bytes, members %s' % (archive, os.path.getsize(archive), members))
    if args.archive_out:
        shutil.copyfile(archive, args.archive_out)
    convert = subprocess.run([engine, 'convert-pgn', '--pgn', archive, '--out', 'datagen.vf'], capture_output=True, text=True, check=True)
    print('convert-pgn: %s' % convert.stderr.strip())
    trained = subprocess.run(
        [engine, 'train', '--data', 'datagen.vf', '--out-dir', 'nets', '--hidden', '16', '--epochs', '1', '--batch', '64', '--valid', '20', '--threads', '1'],
        capture_output=True, text=True, check=True,
    )
    print('train: %s' % trained.stderr.strip().splitlines()[-1])


if __name__ == '__main__':
    main()
