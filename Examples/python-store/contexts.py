"""Contract 1.4 for the example store: several contexts on one store, child contexts,
refreshing, validateValue, change tracking, fetch requests and read-only reopening
(docs/adapter-contract.md §4.10-§4.12). `Store` takes these requests from this mixin.

Each context is a `Context` (store.py). With more than one, a context holds its own values
for the objects it has read or changed ("registered"), and follows its parent -- the store's
rows or the parent context -- for the others, which it brings up to date before each request.
"""

import re
import unicodedata

MERGE_ERROR = 133020
MISSING_MANDATORY_PROPERTY = 1570
MULTIPLE_ERRORS = 1560


def same_record(a, b):
    return a is not None and a.entity == b.entity and a.attributes == b.attributes \
        and a.relationships == b.relationships


def merged_value(mine, snapshot, stored, policy):
    """One property of an object in conflict, as the policy resolves it: ObjectTrump keeps the
    context's value where the context changed it, StoreTrump takes the store's where the store
    changed it, Overwrite keeps every value of the context, Rollback every value of the store."""
    if policy == "mergeByPropertyObjectTrump":
        return mine if mine != snapshot else stored
    if policy == "mergeByPropertyStoreTrump":
        return stored if stored != snapshot else mine
    if policy == "overwrite":
        return mine
    return stored


class ContextRequests:
    """The requests of contract 1.4; mixed into `Store`."""

    # Contexts

    def request_addContext(self, body):
        from store import StoreError
        name, parent = body["name"], body.get("parent")
        if name in self.contexts:
            raise StoreError("invalidRequest", "a context named '%s' already exists" % name)
        if parent is not None and parent not in self.contexts:
            raise StoreError("invalidRequest", "no context named '%s'" % parent)
        if not self.several_contexts():
            # From now on rows have versions, and the main context has read what it holds.
            self.persistent = dict(self.persistent)
            self.versions = {oid: 1 for oid in self.persistent}
            main = self.contexts["main"]
            main.registered = set(main.graph)
            main.read_versions = {oid: 1 for oid in main.graph if oid in self.persistent}
        self.contexts[name] = self.context_class(self.schema)
        self.parent_of[name] = parent
        self.synchronize(name)
        return "done", {}

    def request_inContext(self, body):
        from store import StoreError
        name = body["context"]
        (kind, inner), = body["request"].items()
        if kind in ("inContext", "addContext"):
            raise StoreError("invalidRequest", "'%s' cannot be sent inside a context" % kind)
        if name not in self.contexts:
            raise StoreError("invalidRequest", "no context named '%s'" % name)
        previous, self.current = self.current, name
        try:
            return self.handle(kind, inner)
        finally:
            self.current = previous

    def parent_view(self, name):
        """What the parent of context `name` holds: the store's rows, or the parent context's
        live objects with their pending values."""
        parent = self.parent_of[name]
        if parent is None:
            return self.persistent
        context = self.contexts[parent]
        return {oid: record for oid, record in context.graph.items() if oid not in context.deleted}

    def synchronize(self, name):
        """Brings the objects context `name` has not read up to date with its parent."""
        parent = self.parent_of[name]
        if parent is not None:
            self.synchronize(parent)
        view = self.parent_view(name)
        context = self.contexts[name]
        for oid, record in view.items():
            if oid in context.registered:
                continue
            if not same_record(context.graph.get(oid), record):
                context.graph[oid] = record.__deepcopy__(None)
            if not same_record(context.saved.get(oid), record):
                context.saved[oid] = record.__deepcopy__(None)
            if parent is None:
                context.read_versions[oid] = self.versions.get(oid)
        for oid in list(context.graph):
            if oid not in context.registered and oid not in view:
                del context.graph[oid]
                context.saved.pop(oid, None)
                context.read_versions.pop(oid, None)

    def resolve_conflicts(self, candidate, policy):
        """Optimistic locking at a save to the store: an object the context changed or deleted
        whose row was written since it was read is a conflict. The error policy fails with
        133020 naming the objects and the properties the store changed; the others merge."""
        from store import failure
        written = (candidate.changed | candidate.deleted) - candidate.inserted
        conflicts = sorted(oid for oid in written if candidate.read_versions.get(oid) != self.versions.get(oid))
        if not conflicts:
            return None
        if policy == "error":
            details, names = [], []
            for oid in conflicts:
                name = candidate.graph[oid].name
                names.append(name)
                stored, snapshot = self.persistent.get(oid), candidate.saved.get(oid)
                if stored is None or snapshot is None:
                    details.append(failure(MERGE_ERROR, name))
                    continue
                entity = self.schema.entities[stored.entity]
                for key, attribute in entity["attributes"].items():
                    if not attribute["isTransient"] and stored.attributes.get(key) != snapshot.attributes.get(key):
                        details.append(failure(MERGE_ERROR, name, key))
                for key in entity["relationships"]:
                    if set(stored.relationships[key]) != set(snapshot.relationships[key]):
                        details.append(failure(MERGE_ERROR, name, key))
            return failure(MERGE_ERROR, details=details, objects=sorted(names))
        for oid in conflicts:
            stored = self.persistent.get(oid)
            if stored is None:
                candidate.discard(oid)  # deleted in the store meanwhile: not checked by the suite
                continue
            if oid in candidate.deleted:
                continue
            mine, snapshot = candidate.graph[oid], candidate.saved[oid]
            entity = self.schema.entities[mine.entity]
            for key, attribute in entity["attributes"].items():
                if not attribute["isTransient"]:
                    mine.attributes[key] = merged_value(mine.attributes.get(key), snapshot.attributes.get(key),
                                                        stored.attributes.get(key), policy)
            for key in entity["relationships"]:
                mine.relationships[key] = list(merged_value(mine.relationships[key], snapshot.relationships[key],
                                                            stored.relationships[key], policy))
            candidate.saved[oid] = stored.__deepcopy__(None)
            candidate.read_versions[oid] = self.versions.get(oid)
        return "merged"

    def push(self, child, written, parent_name):
        """A child's save: its changes become pending changes of the parent context. `child`
        is the child as it was before the save."""
        parent = self.contexts[parent_name]
        gone = [oid for oid in written if oid in child.deleted]
        kept = [oid for oid in written if oid not in child.deleted and oid in child.graph]
        for oid in kept:
            if oid in child.inserted and oid not in parent.graph:
                record = child.graph[oid]
                parent.insert(oid, record.entity, record.name, dict(record.attributes))
        for oid in kept:
            record, mine = child.graph[oid], parent.graph.get(oid)
            if mine is None:
                continue
            for key, value in record.attributes.items():
                if mine.attributes.get(key) != value:
                    parent.set(oid, key, value)
        for oid in kept:
            record = child.graph[oid]
            if oid not in parent.graph:
                continue
            for key, members in record.relationships.items():
                wanted = [member for member in members if parent.is_live(member)]
                for member in list(parent.graph[oid].relationships[key]):
                    if member not in wanted:
                        parent.unlink(oid, key, member)
                for member in wanted:
                    if member not in parent.graph[oid].relationships[key]:
                        parent.link(oid, key, member)
        for oid in gone:
            if oid in child.inserted or not parent.is_live(oid):
                continue
            if oid in parent.inserted:
                parent.discard(oid)
            else:
                parent.delete(oid)
        parent.registered |= {oid for oid in written if oid in parent.graph}

    # Refreshing

    def refresh(self, oid, merge_changes):
        """refresh(_:mergeChanges:): the parent's current values, with the pending changes
        applied again over them when merging; transient values not pending go to defaults."""
        context = self.context
        fresh = self.parent_view(self.current).get(oid)
        current, snapshot = context.graph.get(oid), context.saved.get(oid)
        if fresh is None or current is None or snapshot is None or oid in context.inserted:
            return
        merged = fresh.__deepcopy__(None)
        still_changed = False
        if merge_changes:
            for key, value in current.attributes.items():
                if value != snapshot.attributes.get(key):
                    merged.attributes[key] = value
                    still_changed = True
            for key, members in current.relationships.items():
                if members != snapshot.relationships.get(key):
                    merged.relationships[key] = list(members)
                    still_changed = True
            still_changed = still_changed or oid in context.deleted
        else:
            context.deleted.discard(oid)
        context.graph[oid] = merged
        context.saved[oid] = fresh.__deepcopy__(None)
        if not still_changed:
            context.changed.discard(oid)
        if self.parent_of[self.current] is None and self.several_contexts():
            context.read_versions[oid] = self.versions.get(oid)

    def request_refresh(self, body):
        from store import StoreError
        oid = self.ids.get(body["object"])
        if oid is None or oid not in self.context.graph:
            raise StoreError("noSuchObject", "no object named '%s'" % body["object"])
        self.refresh(oid, body["mergeChanges"])
        return "done", {}

    def request_refreshAll(self, body):
        context = self.context
        oids = sorted(context.registered if self.several_contexts() else context.graph)
        for oid in oids:
            self.refresh(oid, True)
        return "done", {}

    def request_reopenWithOptions(self, body):
        self.reset_all(read_only=bool(body["_0"].get("readOnly")))
        return "done", {}

    # Validating

    def request_validate(self, body):
        """validateValue(_:forKey:): 1570 for nil in a required attribute, else every limit
        the value breaks -- one failure alone, several wrapped in 1560."""
        from store import combined, failure, with_value
        oid = self.live(body["object"])
        record = self.context.graph[oid]
        attribute = self.schema.attribute(record.entity, body["attribute"])
        value = self.typed(attribute, body.get("value"))
        if value is None:
            failures = [] if attribute["isOptional"] else [failure(MISSING_MANDATORY_PROPERTY, record.name, body["attribute"])]
        else:
            failures = [with_value(failure(code, record.name, body["attribute"]), attribute, value)
                        for code in self.context.limit_violations(attribute, value)]
        problem = combined(failures)
        return ("valid", {}) if problem is None else ("invalid", {"_0": problem})

    # Change tracking

    def request_changes(self, body):
        context = self.context
        graph = context.graph
        return "changes", {"_0": {
            "hasChanges": context.has_changes(),
            "inserted": [graph[oid].name for oid in context.inserted if oid not in context.deleted and oid in graph],
            "updated": [graph[oid].name for oid in context.changed
                        if oid not in context.inserted and oid not in context.deleted and oid in graph],
            "deleted": [graph[oid].name for oid in context.deleted if oid not in context.inserted and oid in graph],
        }}

    def request_isDeleted(self, body):
        oid = self.ids.get(body["object"])
        context = self.context
        return "isDeleted", {"_0": oid is not None and oid in context.graph and oid in context.deleted}

    # Fetching

    def request_fetch(self, body):
        """A fetch request: the candidates are the context's live objects of the entity's kind
        (or the parent's, without pending changes); the predicate filters, the sort descriptors
        order (ties keep the candidates' order), then the offset and limit apply."""
        request = body["_0"]
        self.schema.entity(request["entity"])
        context = self.context
        if request.get("includesPendingChanges", True):
            source = {oid: record for oid, record in context.graph.items() if context.is_live(oid)}
        else:
            source = self.parent_view(self.current)
        candidates = [oid for oid in sorted(source) if self.schema.is_kind_of(source[oid].entity, request["entity"])]
        predicate = request.get("predicate")
        if predicate is not None:
            candidates = [oid for oid in candidates
                          if evaluate(predicate["expression"], lambda path, oid=oid: self.key_path_value(source, oid, path))]
        descriptors = request.get("sortDescriptors") or []
        for descriptor in reversed(descriptors):
            path = descriptor["key"].split(".")
            candidates = sorted(candidates, key=lambda oid, path=path: SortKey(self.key_path_value(source, oid, path)),
                                reverse=not descriptor.get("ascending", True))
        offset, limit = request.get("fetchOffset", 0), request.get("fetchLimit", 0)
        candidates = candidates[offset:]
        if limit:
            candidates = candidates[:limit]
        if self.several_contexts():
            context.registered |= {oid for oid in candidates if oid in context.graph}
        return "objects", {"_0": [source[oid].name for oid in candidates]}

    def key_path_value(self, graph, oid, path):
        for index, key in enumerate(path):
            record = graph.get(oid)
            if record is None:
                return None
            if key in record.attributes:
                return record.attributes[key] if index == len(path) - 1 else None
            members = record.relationships.get(key) or []
            if not members:
                return None
            if index == len(path) - 1:
                return graph[members[0]].name if members[0] in graph else None
            oid = members[0]
        return None


class SortKey:
    """Sorting as compare: does it: nil before every value, numbers by value, strings by their
    code points. Python's sort is stable, so ties keep the candidates' order even descending
    (reverse=True keeps equal items in their original order too)."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def __lt__(self, other):
        return order(self.value, other.value) < 0

    def __eq__(self, other):
        return order(self.value, other.value) == 0


def order(a, b):
    if a is None or b is None:
        return 0 if a is b else (-1 if a is None else 1)
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return (a > b) - (a < b)
    a, b = str(a), str(b)
    return (a > b) - (a < b)


def fold(text, comparison):
    if comparison.get("caseInsensitive"):
        text = text.lower()
    if comparison.get("diacriticInsensitive"):
        text = "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))
    return text


def operand_values(operand, read):
    (kind, body), = operand.items()
    if kind == "keyPath":
        return [read(body["_0"])]
    if kind == "value":
        return [body["_0"]]
    return list(body["_0"])


def evaluate(expression, read):
    """The predicate tree momlint sends (contract §4.11), over one object."""
    (kind, body), = expression.items()
    if kind == "constant":
        return body["_0"]
    if kind == "not":
        return not evaluate(body["_0"], read)
    if kind == "and":
        return all(evaluate(part, read) for part in body["_0"])
    if kind == "or":
        return any(evaluate(part, read) for part in body["_0"])
    comparison = body["_0"]
    left = operand_values(comparison["left"], read)
    right = operand_values(comparison["right"], read)
    op = comparison["operator"]
    value = left[0]

    def equal(a, b):
        if a is None or b is None:
            return a is b
        if isinstance(a, (int, float)) and isinstance(b, (int, float)):
            return a == b
        if isinstance(a, str) and isinstance(b, str):
            return fold(a, comparison) == fold(b, comparison)
        return a == b

    def ordered(a, b):
        if a is None or b is None:
            return None
        if isinstance(a, (int, float)) and isinstance(b, (int, float)):
            return (a > b) - (a < b)
        if isinstance(a, str) and isinstance(b, str):
            a, b = fold(a, comparison), fold(b, comparison)
            return (a > b) - (a < b)
        return None

    if op == "==":
        return equal(value, right[0])
    if op == "!=":
        return not equal(value, right[0])
    if op == "IN":
        return any(equal(value, item) for item in right)
    if op == "BETWEEN":
        low, high = ordered(value, right[0]), ordered(value, right[1])
        return low is not None and high is not None and low >= 0 and high <= 0
    if op in ("<", "<=", ">", ">="):
        result = ordered(value, right[0])
        if result is None:
            return False
        return {"<": result < 0, "<=": result <= 0, ">": result > 0, ">=": result >= 0}[op]
    if not isinstance(value, str) or not isinstance(right[0], str):
        return False
    subject, argument = fold(value, comparison), fold(right[0], comparison)
    if op == "BEGINSWITH":
        return subject.startswith(argument)
    if op == "ENDSWITH":
        return subject.endswith(argument)
    if op == "CONTAINS":
        return argument in subject
    if op == "LIKE":
        pattern = "".join(".*" if c == "*" else "." if c == "?" else re.escape(c) for c in argument)
        return re.fullmatch(pattern, subject, re.DOTALL) is not None
    if op == "MATCHES":
        try:
            return re.fullmatch(argument, subject, re.DOTALL) is not None
        except re.error:
            return False
    return False
