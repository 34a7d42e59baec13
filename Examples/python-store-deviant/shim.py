#!/usr/bin/env python3
"""The example store with deliberate deviations, to show how the suite reports a store that
gets things wrong:

1. Deny is treated as Nullify: deleting a department that still has employees succeeds and
   empties their `department` instead of failing the save with 1600.
2. No Action is treated as Nullify: the destinations stop pointing at the deleted object at
   once, instead of keeping the dangling reference until the save.
3. It says, in the handshake, that it does not support merge policies other than `error`:
   scenarios that need the `merge-policy` feature are skipped, not failed.

Run it with its expected-failures file, and the run is green while the gaps stay listed:

    momlint conformance --adapter "exec:python3 Examples/python-store-deviant/shim.py" \\
        --expected-failures Examples/python-store-deviant/expected-failures.txt
"""

import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "python-store"))

from shim import serve  # noqa: E402
from store import Context, Store  # noqa: E402


class DeviantContext(Context):
    def delete_rule(self, relationship):
        rule = relationship["deleteRule"]
        return "nullify" if rule in ("deny", "noAction") else rule


class DeviantStore(Store):
    context_class = DeviantContext


if __name__ == "__main__":
    serve(DeviantStore, name="python-store-deviant", unsupported_features=["merge-policy"])
