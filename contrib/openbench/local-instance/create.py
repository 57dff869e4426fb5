# Logs in to the local OpenBench and submits a workload form (TEST, TUNE or DATAGEN), as the web page does.
#
#   create.py TEST | DATAGEN | TUNE inputs=<spsa.txt> [field=value ...]
#
# Both sides build the branch `main` unless dev_branch=/base_branch= say otherwise
# (a tune wants a branch whose Makefile says TUNE ?= 1). Prints the workload's address.
import re, sys, requests

S = 'http://127.0.0.1:8000'


def submit(kind, extra):
    """Submits the form; returns (address of the new workload or the form again, error messages)."""
    s = requests.Session()
    s.get(S + '/login/')
    s.post(S + '/login/', data={'username': 'kestrel', 'password': 'kestrel-local-pass', 'csrfmiddlewaretoken': s.cookies['csrftoken']})
    common = {
        'dev_engine': 'Kestrel', 'dev_repo': 'https://github.com/local/kestrel', 'dev_branch': 'main', 'dev_bench': '',
        'dev_network': '', 'dev_options': 'Threads=1 Hash=16', 'dev_time_control': 'N=1000',
        'base_engine': 'Kestrel', 'base_repo': 'https://github.com/local/kestrel', 'base_branch': 'main', 'base_bench': '',
        'base_network': '', 'base_options': 'Threads=1 Hash=16', 'base_time_control': 'N=1000',
        'book_name': 'uho-sample.epd', 'upload_pgns': 'COMPACT', 'priority': '0', 'throughput': '1000',
        'syzygy_wdl': 'DISABLED', 'syzygy_adj': 'DISABLED', 'workload_size': '4', 'scale_method': 'DEV', 'scale_nps': '400000',
        'win_adj': 'movecount=3 score=400', 'draw_adj': 'movenumber=40 movecount=8 score=10', 'info': '',
        'csrfmiddlewaretoken': s.cookies['csrftoken'],
    }
    extra = dict(extra)
    if kind == 'TEST':
        data = {**common, 'test_mode': 'SPRT', 'test_bounds': '[0.00, 5.00]', 'test_confidence': '[0.05, 0.05]', 'test_max_games': '0'}
        path = '/test/new/'
    elif kind == 'DATAGEN':
        data = {**common, 'book_name': 'NONE', 'datagen_max_games': '16', 'datagen_custom_genfens': '', 'datagen_play_reverses': 'NO',
                'win_adj': 'None', 'draw_adj': 'None'}
        path = '/datagen/new/'
    elif kind == 'TUNE':
        data = {**common, 'spsa_reporting_type': 'BATCHED', 'spsa_distribution_type': 'SINGLE', 'spsa_alpha': '0.602', 'spsa_gamma': '0.101',
                'spsa_A_ratio': '0.1', 'spsa_iterations': '8', 'spsa_pairs_per': '2', 'spsa_inputs': open(extra.pop('inputs')).read().strip()}
        path = '/tune/new/'
    else:
        raise SystemExit('create.py: the workload is TEST, TUNE or DATAGEN, not %r' % kind)
    data.update(extra)
    r = s.post(S + path, data=data)
    return r.url, [m.strip() for m in re.findall(r'class="(?:error|warning)-message">\s*<pre>([^<]*)</pre>', r.text)]


if __name__ == '__main__':
    url, messages = submit(sys.argv[1], (a.split('=', 1) for a in sys.argv[2:]))
    print(url)
    for m in messages: print('message:', m)
