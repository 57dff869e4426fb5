# Logged-in POST of a workload action (STOP, ...) on the local OpenBench, as its page's buttons do.
import sys, requests
S = 'http://127.0.0.1:8000'
s = requests.Session()
s.get(S + '/login/')
s.post(S + '/login/', data={'username': 'kestrel', 'password': 'kestrel-local-pass', 'csrfmiddlewaretoken': s.cookies['csrftoken']})
r = s.post(S + '/%s/%s/%s/' % (sys.argv[1], sys.argv[2], sys.argv[3]), data={'csrfmiddlewaretoken': s.cookies['csrftoken']})
print(r.status_code, r.url)
