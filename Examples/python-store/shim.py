#!/usr/bin/env python3
"""momlint process shim for the example in-memory store (store.py).

Run the conformance suite against it from the repository root:

    momlint conformance --adapter "exec:python3 Examples/python-store/shim.py"

The protocol (docs/implementers.md): momlint writes one JSON object per line on our stdin,
each with an "id" and one key naming the message; we answer each with exactly one line on
stdout carrying the same id. Logs go to stderr, never stdout.
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from store import Store, StoreError  # noqa: E402

CONTRACT_MAJOR_VERSION = 1
# Contract 1.4: contexts, refresh, validate, change tracking, fetch requests, store options.
CONTRACT_MINOR_VERSION = 4


def serve(store_class=Store, name="python-store", unsupported_features=(), stdin=sys.stdin, stdout=sys.stdout):
    """Answers messages until stdin closes."""
    store = None
    for line in stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        message_id = message.pop("id")
        (kind, body), = message.items()
        try:
            if kind == "hello":
                answer = {"hello": {"contractMajorVersion": CONTRACT_MAJOR_VERSION,
                                    "contractMinorVersion": CONTRACT_MINOR_VERSION, "name": name,
                                    "unsupportedFeatures": list(unsupported_features)}}
            elif kind == "open":
                # A fresh, empty store for this scenario's model (contract §2).
                store = store_class(body["model"])
                answer = {"done": {}}
            elif kind == "close":
                store = None
                answer = {"done": {}}
            elif store is None:
                raise StoreError("invalidRequest", "'%s' before 'open'" % kind)
            else:
                key, value = store.handle(kind, body)
                answer = {key: value}
        except StoreError as error:
            answer = {"error": {"kind": error.kind, "message": error.message}}
        except Exception as error:  # a bug in the store: report it, keep serving
            print("store failure on %s: %r" % (kind, error), file=sys.stderr)
            answer = {"error": {"kind": "storeFailure", "message": "%s: %s" % (type(error).__name__, error)}}
        answer["id"] = message_id
        stdout.write(json.dumps(answer) + "\n")
        stdout.flush()


def main():
    # MOMLINT_STORE_FAULT switches on one defect from faults.py, to measure the suite
    # (scripts/mutation.py); unset, the store is the correct one.
    from faults import FAULTS, store_class
    fault = os.environ.get("MOMLINT_STORE_FAULT") or None
    if fault is not None and fault not in FAULTS:
        print("unknown MOMLINT_STORE_FAULT '%s'; known faults: %s" % (fault, ", ".join(sorted(FAULTS))),
              file=sys.stderr)
        sys.exit(2)
    serve(store_class=store_class(fault), name="python-store" if fault is None else "python-store+" + fault)


if __name__ == "__main__":
    main()
