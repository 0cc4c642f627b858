"""Score hand-written questions: located (path and name in the answer), wrong-complete, false-complete."""

import json
import os
import re
import sys

import codehop

root, path = sys.argv[1], sys.argv[2]
fc = wc = located = n = 0
for line in open(path, encoding="utf-8"):
    it = json.loads(line)
    n += 1
    a = codehop.ask(it["q"], repo=os.path.join(root, it["repo"])).to_dict()
    state, answer = a["state"], a["answer"]
    if it.get("expect") == "partial":
        fc += state == "complete"
        tag = "FALSE-COMPLETE" if state == "complete" else "ok-partial"
    else:
        hit = it["path"] in answer and re.search(rf"(?<!\w){re.escape(it['name'])}(?!\w)", answer) is not None
        located += hit
        wc += state == "complete" and not hit
        tag = "WRONG-COMPLETE" if state == "complete" and not hit else ("ok" if hit else "miss")
    print(f"{tag:16s} {state:16s} {it['q']}")
print(f"n={n} located={located} wrong-complete={wc} false-complete={fc}")
