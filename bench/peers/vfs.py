# N update/vfs calls with requests.Session (bench/per-step.mjs). `vfs.py URL N`.
import os, sys, requests

url, n = sys.argv[1], int(sys.argv[2])
s = requests.Session()
s.auth = (os.environ["ENGINE_USERNAME"], os.environ["ENGINE_PASSWORD"])
body = {"targetDBName": "PROD", "targetServer": "prod-db.example.com", "targetAuthToken": "prod-token", "files": [1001]}
for _ in range(n):
    r = s.post(f"{url}/api/devops/v1/update/vfs", json=body)
    if r.status_code != 200 or not r.json()["success"]:
        sys.exit(f"HTTP {r.status_code}")
