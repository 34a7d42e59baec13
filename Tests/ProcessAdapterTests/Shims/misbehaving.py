#!/usr/bin/env python3
"""A shim that behaves like Examples/python-store until the scenario named on its command line
opens, then misbehaves in the way asked for, once:

    misbehaving.py MODE SCENARIO_ID [TEXT]

MODE: crash (exits with a traceback on stderr), hang (stops answering), garbage (prints a line
that is not JSON), wrong-id (answers with the wrong id), wrong-version (speaks contract 2 in the
handshake, whatever the scenario), chatty (writes 100 KB on stderr, then crashes), answer-value
(answers every `value` request with TEXT, a JSON string, and keeps doing so).
"""

import json
import os
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "..", "Examples", "python-store"))

from store import Store, StoreError  # noqa: E402

mode, trigger = sys.argv[1], sys.argv[2]
answered_value = sys.argv[3] if len(sys.argv) > 3 else None
store = None
armed = False

for line in sys.stdin:
    message = json.loads(line)
    message_id = message.pop("id")
    (kind, body), = message.items()
    answer_id = message_id
    if kind == "hello":
        major = 2 if mode == "wrong-version" else 1
        answer = {"hello": {"contractMajorVersion": major, "name": "misbehaving", "unsupportedFeatures": []}}
    elif kind == "open":
        store = Store(body["model"])
        armed = body["scenario"] == trigger
        answer = {"done": {}}
    elif kind == "close":
        store = None
        answer = {"done": {}}
    else:
        if armed and mode == "answer-value":
            if kind == "value":
                print(json.dumps({"id": message_id, "value": {"_0": answered_value}}))
                sys.stdout.flush()
                continue
        elif armed:
            print("misbehaving shim: about to %s on request %d (%s)" % (mode, message_id, kind), file=sys.stderr)
            sys.stderr.flush()
            if mode == "crash":
                raise RuntimeError("simulated crash in the store")
            if mode == "chatty":
                for number in range(2000):
                    print("log line %04d %s" % (number, "x" * 40), file=sys.stderr)
                print("the last words of the shim", file=sys.stderr)
                sys.exit(3)
            if mode == "hang":
                time.sleep(3600)
            if mode == "garbage":
                print("hello, this is not JSON")
                sys.stdout.flush()
                armed = False
                continue
            if mode == "wrong-id":
                answer_id = message_id + 1
        try:
            key, value = store.handle(kind, body)
            answer = {key: value}
        except StoreError as error:
            answer = {"error": {"kind": error.kind, "message": error.message}}
    answer["id"] = answer_id
    print(json.dumps(answer))
    sys.stdout.flush()
