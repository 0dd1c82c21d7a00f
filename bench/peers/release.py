# The release workload as a user would script it with requests (bench/release.mjs): the same
# calls as release.yml, failing on a critical alert or an unsuccessful update. `release.py URL`.
import os, sys, requests

url = sys.argv[1]
s = requests.Session()
s.auth = (os.environ["ENGINE_USERNAME"], os.environ["ENGINE_PASSWORD"])
alerts = s.get(f"{url}/api/monitoring/v1/alerts").json()
if any(a.get("severity") == "critical" for a in alerts):
    sys.exit("critical alert")
s.post(f"{url}/api/devops/v1/transaction-log/clear").raise_for_status()
s.post(f"{url}/api/devops/v1/replication/sync").raise_for_status()
r = s.post(f"{url}/api/devops/v1/update/vfs", json={"targetDBName": "PROD", "targetServer": "prod-db.example.com", "targetAuthToken": "prod-token", "files": [1001, 1004]})
if not r.json()["success"]:
    sys.exit("vfs update failed")
for db, server, token in [("STAGING", "staging-db.example.com", "staging-token"), ("PROD", "prod-db.example.com", "prod-token")]:
    r = s.post(f"{url}/api/devops/v1/update/system", json={"targetDBName": db, "targetServer": server, "targetAuthToken": token, "trackingId": "REL-1"})
    if not r.json()["success"]:
        sys.exit(f"system update of {db} failed")
