# Logs in to the local OpenBench and submits a workload form (TEST, TUNE or DATAGEN), as the web page does.
import re, sys, requests
kind = sys.argv[1]
S = 'http://127.0.0.1:8000'
s = requests.Session()
s.get(S + '/login/')
r = s.post(S + '/login/', data={'username': 'kestrel', 'password': 'kestrel-local-pass', 'csrfmiddlewaretoken': s.cookies['csrftoken']})
common = {
    'dev_engine': 'Kestrel', 'dev_repo': 'https://github.com/local/kestrel', 'dev_branch': 'openbench', 'dev_bench': '',
    'dev_network': '', 'dev_options': 'Threads=1 Hash=16', 'dev_time_control': 'N=1000',
    'base_engine': 'Kestrel', 'base_repo': 'https://github.com/local/kestrel', 'base_branch': 'openbench', 'base_bench': '',
    'base_network': '', 'base_options': 'Threads=1 Hash=16', 'base_time_control': 'N=1000',
    'book_name': 'uho-sample.epd', 'upload_pgns': 'COMPACT', 'priority': '0', 'throughput': '1000',
    'syzygy_wdl': 'DISABLED', 'syzygy_adj': 'DISABLED', 'workload_size': '4', 'scale_method': 'DEV', 'scale_nps': '400000',
    'win_adj': 'movecount=3 score=400', 'draw_adj': 'movenumber=40 movecount=8 score=10', 'info': '',
    'csrfmiddlewaretoken': s.cookies['csrftoken'],
}
extra = dict(a.split('=', 1) for a in sys.argv[2:])
if kind == 'TEST':
    data = {**common, 'test_mode': 'SPRT', 'test_bounds': '[0.00, 5.00]', 'test_confidence': '[0.05, 0.05]', 'test_max_games': '0'}
    path = '/test/new/'
elif kind == 'DATAGEN':
    data = {**common, 'book_name': 'NONE', 'datagen_max_games': '16', 'datagen_custom_genfens': '', 'datagen_play_reverses': 'NO',
            'win_adj': 'None', 'draw_adj': 'None'}
    path = '/datagen/new/'
else:
    data = {**common, 'spsa_reporting_type': 'BATCHED', 'spsa_distribution_type': 'SINGLE', 'spsa_alpha': '0.602', 'spsa_gamma': '0.101',
            'spsa_A_ratio': '0.1', 'spsa_iterations': '8', 'spsa_pairs_per': '2', 'spsa_inputs': open(extra.pop('inputs')).read().strip()}
    path = '/tune/new/'
data.update(extra)
r = s.post(S + path, data=data)
print(r.status_code, r.url)
for m in re.findall(r'class="[^"]*(?:error|warning)[^"]*"[^>]*>([^<]+)<', r.text): print('message:', m.strip())
