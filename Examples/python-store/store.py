"""A small in-memory object-graph store with Core Data's semantics, as momlint's adapter
contract defines them (docs/adapter-contract.md): delete rules that propagate before the next
request, validation at save, uniqueness constraints resolved by merge policy, atomic saves.

Standard library only. The model comes from `momlint export` (the `model` of the `open`
message), so there is no XML to parse: every entity already lists its inherited attributes,
relationships and constraints, and every relationship names its inverse.

`shim.py` speaks the process protocol and calls `Store.handle`; this file knows nothing of it.
"""

import base64
import copy
import re
from datetime import datetime, timedelta, timezone

import contexts
import migration

# Core Data's error codes (CoreDataErrors.h), as the contract's table lists them (§4.5).
MULTIPLE_ERRORS = 1560
MISSING_MANDATORY_PROPERTY = 1570
TOO_FEW_OBJECTS = 1580
TOO_MANY_OBJECTS = 1590
DENIED_DELETE = 1600
NUMBER_TOO_LARGE = 1610
NUMBER_TOO_SMALL = 1620
DATE_TOO_LATE = 1630
DATE_TOO_SOON = 1640
STRING_TOO_LONG = 1660
STRING_TOO_SHORT = 1670
STRING_PATTERN = 1680
MERGE_ERROR = 133020
CONSTRAINT_MERGE_ERROR = 133021
FILE_WRITE_NO_PERMISSION = 513  # NSFileWriteNoPermissionError: a save to a read-only store

NUMBER_TYPES = {"Integer 16", "Integer 32", "Integer 64", "Decimal", "Double", "Float"}

# Dates travel as ISO 8601 strings; the store compares them as seconds since Core Data's
# reference date, 2001-01-01 00:00:00 UTC.
REFERENCE_DATE = datetime(2001, 1, 1, tzinfo=timezone.utc)


def seconds_from_iso(text):
    moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return (moment - REFERENCE_DATE).total_seconds()


def iso_from_seconds(seconds):
    moment = REFERENCE_DATE + timedelta(seconds=seconds)
    if seconds == int(seconds):
        return moment.strftime("%Y-%m-%dT%H:%M:%SZ")
    # Every digit a datetime holds (microseconds): an answer rounded further would change the date.
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%f").rstrip("0").rstrip(".") + "Z"


class StoreError(Exception):
    """A request the store cannot perform (contract §6); `kind` is one of noSuchObject,
    noSuchProperty, unsupported, invalidRequest, storeFailure."""

    def __init__(self, kind, message):
        super().__init__(message)
        self.kind = kind
        self.message = message


def failure(code, obj=None, key=None, details=None, **extra):
    """A save failure as the protocol writes it (contract §7); `extra` holds the details of
    contract 1.1 (`value`, `objects`), see with_value and conflict_failure."""
    result = {"code": code, "details": details or []}
    if obj is not None:
        result["object"] = obj
    if key is not None:
        result["key"] = key
    result.update(extra)
    return result


def with_value(failure_answer, attribute, value):
    """The failure naming the value that broke a limit (NSValidationErrorValue), as the
    protocol writes values: dates as ISO 8601 strings."""
    if value is not None:
        failure_answer["value"] = iso_from_seconds(value) if attribute["type"] == "Date" else value
    return failure_answer


def conflict_failure(conflicts, graph):
    """133021 naming every object of every uniqueness conflict (the error's conflict list)."""
    names = sorted({graph[oid].name for _, group in conflicts for oid in group})
    return failure(CONSTRAINT_MERGE_ERROR, objects=names)


def combined(failures):
    """The failure a save reports: nothing, the only one, or 1560 with all of them."""
    if not failures:
        return None
    if len(failures) == 1:
        return failures[0]
    return failure(MULTIPLE_ERRORS, details=failures)


class Schema:
    """The exported model, indexed: entities by name, each with its properties by name."""

    def __init__(self, exported):
        self.entities = {}
        for entity in exported["entities"]:
            self.entities[entity["name"]] = {
                "name": entity["name"],
                "abstract": entity["isAbstract"],
                "kinds": set([entity["name"]] + entity["ancestors"]),
                "attributes": {a["name"]: self._attribute(a) for a in entity["attributes"]},
                "relationships": {r["name"]: r for r in entity["relationships"]},
            }
        # Each constraint once, with the entity that declares it: conflicts are looked for
        # among every object of that entity's kind (contract §4.6).
        self.constraints = []
        for entity in exported["entities"]:
            for constraint in entity["uniquenessConstraints"]:
                if constraint["declaredBy"] == entity["name"]:
                    self.constraints.append((entity["name"], constraint["properties"]))

    @staticmethod
    def _attribute(exported):
        attribute = dict(exported)
        kind = attribute["type"]
        default = attribute.get("defaultValue")
        if kind == "Date":
            for key in ("defaultValue", "minimum", "maximum"):
                if key in attribute:
                    attribute[key] = seconds_from_iso(attribute[key])
            default = attribute.get("defaultValue")
        attribute["default"] = default
        pattern = attribute.get("regularExpression")
        attribute["pattern"] = re.compile(pattern) if pattern is not None and kind == "String" else None
        return attribute

    def entity(self, name):
        if name not in self.entities:
            raise StoreError("noSuchProperty", "the model has no entity '%s'" % name)
        return self.entities[name]

    def attribute(self, entity_name, name):
        attribute = self.entities[entity_name]["attributes"].get(name)
        if attribute is None:
            raise StoreError("noSuchProperty", "'%s' has no attribute '%s'" % (entity_name, name))
        return attribute

    def relationship(self, entity_name, name):
        relationship = self.entities[entity_name]["relationships"].get(name)
        if relationship is None:
            raise StoreError("noSuchProperty", "'%s' has no relationship '%s'" % (entity_name, name))
        return relationship

    def is_kind_of(self, entity_name, kind):
        return kind in self.entities[entity_name]["kinds"]


class Record:
    """One object: entity, scenario name, attribute values, relationship members (object ids)."""

    __slots__ = ("entity", "name", "attributes", "relationships")

    def __init__(self, entity, name, attributes, relationships):
        self.entity = entity
        self.name = name
        self.attributes = attributes
        self.relationships = relationships

    def __deepcopy__(self, memo):
        return Record(self.entity, self.name, dict(self.attributes),
                      {key: list(value) for key, value in self.relationships.items()})


def cloned(graph):
    """A copy of a graph whose records can change without touching the original: what
    copy.deepcopy does, several times faster on a graph of 100,000 objects."""
    return {oid: record.__deepcopy__(None) for oid, record in graph.items()}


class Context:
    """The saved objects and the current ones with pending changes, like a managed object
    context over its store. `Store.save` works on a copy and keeps it only when the save
    succeeds, so a failing save changes nothing (contract §4.3)."""

    def __init__(self, schema):
        self.schema = schema
        self.saved = {}
        self.graph = {}
        self.inserted = set()
        self.deleted = set()
        # Inserted objects and objects whose attributes or relationships changed since the
        # last save: the ones a save validates.
        self.changed = set()
        # With several contexts (contract 1.4): the objects this context has read or changed
        # since its last reset, which keep the values read; the version of each object's row
        # when read (Core Data's Z_OPT), for optimistic locking; what the last save wrote.
        self.registered = set()
        self.read_versions = {}
        self.last_saved = []

    def copy(self):
        twin = type(self)(self.schema)
        twin.saved = dict(self.saved)  # records are replaced whole, never changed in place
        twin.graph = cloned(self.graph)
        twin.inserted = set(self.inserted)
        twin.deleted = set(self.deleted)
        twin.changed = set(self.changed)
        twin.registered = set(self.registered)
        twin.read_versions = dict(self.read_versions)
        return twin

    def has_changes(self):
        return bool(self.inserted or self.deleted or self.changed)

    def limit_violations(self, attribute, value):
        return limit_violations(attribute, value)

    def is_live(self, oid):
        return oid in self.graph and oid not in self.deleted

    def relationship_of(self, oid, name):
        return self.schema.entities[self.graph[oid].entity]["relationships"][name]

    # Changes (contract §4.1)

    def insert(self, oid, entity_name, name, values):
        entity = self.schema.entities[entity_name]
        attributes = {key: attribute["default"] for key, attribute in entity["attributes"].items()}
        attributes.update(values)
        relationships = {key: [] for key in entity["relationships"]}
        self.graph[oid] = Record(entity_name, name, attributes, relationships)
        self.inserted.add(oid)
        self.changed.add(oid)

    def set(self, oid, attribute, value):
        self.graph[oid].attributes[attribute] = value
        self.changed.add(oid)

    def link(self, oid, name, destination):
        relationship = self.relationship_of(oid, name)
        destination_entity = self.graph[destination].entity
        if not self.schema.is_kind_of(destination_entity, relationship["destination"]):
            raise StoreError("invalidRequest", "'%s' holds '%s' objects, not '%s'"
                             % (name, relationship["destination"], destination_entity))
        members = self.graph[oid].relationships[name]
        if destination in members:
            return
        if not relationship["isToMany"] and members:
            self.unlink(oid, name, members[0])
        self._add_member(destination, oid, name)
        inverse_name = relationship.get("inverse")
        if inverse_name is not None:
            inverse = self.relationship_of(destination, inverse_name)
            partners = self.graph[destination].relationships[inverse_name]
            # A to-one inverse points at one object only: the destination leaves its old partner.
            if not inverse["isToMany"]:
                if partners and partners[0] != oid:
                    self._remove_member(destination, partners[0], name)
                self.graph[destination].relationships[inverse_name] = []
            self._add_member(oid, destination, inverse_name)

    def unlink(self, oid, name, destination):
        if destination not in self.graph[oid].relationships[name]:
            return
        self._remove_member(destination, oid, name)
        inverse_name = self.relationship_of(oid, name).get("inverse")
        if inverse_name is not None and destination in self.graph:
            self._remove_member(oid, destination, inverse_name)

    def _add_member(self, member, owner, name):
        members = self.graph[owner].relationships[name]
        if member not in members:
            members.append(member)
            self.changed.add(owner)

    def _remove_member(self, member, owner, name):
        if owner not in self.graph:
            return
        members = self.graph[owner].relationships[name]
        if member in members:
            members.remove(member)  # keeps the order of the rest, as an ordered one must
            self.changed.add(owner)

    def _leave_inverses(self, oid, keeping=()):
        """Takes `oid` out of the inverse side of each of its relationships, except on the
        destinations in `keeping`."""
        record = self.graph.get(oid)
        if record is None:
            return
        for name, relationship in self.schema.entities[record.entity]["relationships"].items():
            inverse_name = relationship.get("inverse")
            if inverse_name is None:
                continue
            for destination in list(record.relationships[name]):
                if destination not in keeping:
                    self._remove_member(oid, destination, inverse_name)

    # Delete and propagation (contract §4.2)

    def delete_rule(self, relationship):
        """The rule to apply; a deviant store overrides this."""
        return relationship["deleteRule"]

    def delete(self, oid):
        """Marks `oid` deleted and applies delete rules until nothing new is deleted: a work
        list, not recursion, so a long cascade cannot overflow, and an object reached twice (a
        cycle, a fan-in) is deleted once."""
        if not self.is_live(oid):
            return
        self.deleted.add(oid)
        pending = [oid]
        while pending:
            current = pending.pop()
            entity = self.schema.entities[self.graph[current].entity]
            for name, relationship in entity["relationships"].items():
                rule = self.delete_rule(relationship)
                if rule not in ("nullify", "cascade"):
                    continue  # Deny is checked at save; No Action touches neither side.
                destinations = self.graph[current].relationships[name]
                if not destinations:
                    continue
                self.graph[current].relationships[name] = []
                inverse_name = relationship.get("inverse")
                for destination in destinations:
                    if destination not in self.graph:
                        continue
                    if inverse_name is not None:
                        self._remove_member(current, destination, inverse_name)
                    if rule == "cascade" and destination not in self.deleted:
                        self.deleted.add(destination)
                        pending.append(destination)

    def discard(self, oid):
        """Removes an inserted object as if never inserted (Rollback's new loser): no rules
        run, and whatever pointed at it lets go."""
        if oid not in self.graph:
            return
        self._leave_inverses(oid)
        del self.graph[oid]
        for pending in (self.inserted, self.changed, self.deleted):
            pending.discard(oid)

    def revert(self, oid):
        """Returns a saved object to its saved values and relationships (Rollback's changed
        loser), through link/unlink so the inverses follow."""
        original = self.saved.get(oid)
        if original is None or oid not in self.graph:
            return
        self.graph[oid].attributes = dict(original.attributes)
        for name in list(self.graph[oid].relationships):
            wanted = [member for member in original.relationships[name] if self.is_live(member)]
            for member in list(self.graph[oid].relationships[name]):
                if member not in wanted:
                    self.unlink(oid, name, member)
            for member in wanted:
                if member not in self.graph[oid].relationships[name]:
                    self.link(oid, name, member)
        self.changed.add(oid)

    # Save (contract §4.3)

    def commit(self, policy, resolve_conflicts=None, checks_constraints=True):
        """Validates, resolves conflicts and constraints, and writes; returns a failure or None.
        Call on a copy: a failure leaves this context half-way. `resolve_conflicts` is the
        store's optimistic-locking check (a failure, "merged" or None); a child context's save
        checks no constraints, which the store enforces."""
        problem = self.validation_failure()
        if problem is not None:
            return problem
        if resolve_conflicts is not None:
            outcome = resolve_conflicts(self)
            if isinstance(outcome, dict):
                return outcome
            if outcome == "merged":
                problem = self.validation_failure()
                if problem is not None:
                    return problem
        if checks_constraints:
            resolver = ConstraintResolver(policy)
            try:
                merged = resolver.resolve(self)
            except ConstraintFailure as error:
                return error.failure
            if merged:
                # A merge moves values and deletes losers: what it leaves must be valid too.
                problem = self.validation_failure()
                if problem is not None:
                    return problem
        self.last_saved = sorted(self.inserted | self.changed | self.deleted)
        self._purge_deleted()
        self.saved = cloned(self.graph)
        self.inserted = set()
        self.changed = set()
        return None

    def validation_failure(self):
        return combined(self.deny_failures() + self.attribute_and_count_failures())

    def deny_failures(self):
        failures = []
        for oid in sorted(self.deleted):
            record = self.graph.get(oid)
            if record is None:
                continue
            for name, relationship in self.schema.entities[record.entity]["relationships"].items():
                if self.delete_rule(relationship) != "deny":
                    continue
                # Satisfied when every destination is deleted in the same save.
                if any(self.is_live(member) for member in record.relationships[name]):
                    failures.append(failure(DENIED_DELETE, record.name, name))
        return failures

    def attribute_and_count_failures(self):
        failures = []
        for oid in sorted(self.changed):
            if not self.is_live(oid):
                continue
            record = self.graph[oid]
            entity = self.schema.entities[record.entity]
            for name, attribute in entity["attributes"].items():
                if attribute["isTransient"]:
                    continue
                value = record.attributes.get(name)
                if value is None:
                    if not attribute["isOptional"]:
                        failures.append(failure(MISSING_MANDATORY_PROPERTY, record.name, name))
                    continue
                for code in limit_violations(attribute, value):
                    failures.append(with_value(failure(code, record.name, name), attribute, value))
            for name, relationship in entity["relationships"].items():
                code = count_violation(relationship, len(record.relationships[name]))
                if code is not None:
                    failures.append(failure(code, record.name, name))
        return failures

    def _purge_deleted(self):
        """Drops deleted objects for good, and the references to them that delete rules left
        (No Action, relationships without an inverse)."""
        if not self.deleted:
            return
        for oid in self.deleted:
            self._leave_inverses(oid, keeping=self.deleted)
        removed = set(self.deleted)
        for oid in removed:
            self.graph.pop(oid, None)
        for record in self.graph.values():
            for name, members in record.relationships.items():
                if any(member in removed for member in members):
                    record.relationships[name] = [m for m in members if m not in removed]
        self.deleted = set()

    def reset(self, parent=None):
        """Discards every pending change (contract §4.7) and, given the parent's objects (the
        store's rows), everything read: the context starts again from them."""
        if parent is not None:
            self.saved = cloned(parent)
            self.registered = set()
            self.read_versions = {}
        self.graph = cloned(self.saved)
        self.inserted = set()
        self.deleted = set()
        self.changed = set()


def limit_violations(attribute, value):
    """The codes of the limits a non-null value breaks (contract §4.3)."""
    kind = attribute["type"]
    low, high = attribute.get("minimum"), attribute.get("maximum")
    if kind in NUMBER_TYPES:
        if high is not None and value > high:
            return [NUMBER_TOO_LARGE]
        if low is not None and value < low:
            return [NUMBER_TOO_SMALL]
        return []
    if kind == "Date":
        codes = []
        seconds = seconds_from_iso(value) if isinstance(value, str) else value
        if high is not None and seconds > high:
            codes.append(DATE_TOO_LATE)
        if low is not None and seconds < low:
            codes.append(DATE_TOO_SOON)
        return codes
    if kind == "String":
        codes = []
        if high is not None and len(value) > high:
            codes.append(STRING_TOO_LONG)
        if low is not None and len(value) < low:
            codes.append(STRING_TOO_SHORT)
        # Core Data matches the whole string (NSPredicate MATCHES).
        if attribute["pattern"] is not None and attribute["pattern"].fullmatch(value) is None:
            codes.append(STRING_PATTERN)
        return codes
    return []


def count_violation(relationship, count):
    """What a relationship holding `count` objects breaks: an empty required to-one is
    missing (1570); counts apply to a non-empty to-many, and to an empty one only when it is
    required with a minCount (1580)."""
    if not relationship["isToMany"]:
        return MISSING_MANDATORY_PROPERTY if count == 0 and not relationship["isOptional"] else None
    minimum, maximum = relationship["minCount"], relationship.get("maxCount")
    if count == 0:
        return TOO_FEW_OBJECTS if not relationship["isOptional"] and minimum > 0 else None
    if minimum > 0 and count < minimum:
        return TOO_FEW_OBJECTS
    if maximum is not None and count > maximum:
        return TOO_MANY_OBJECTS
    return None


class ConstraintFailure(Exception):
    def __init__(self, failure_answer):
        super().__init__(failure_answer)
        self.failure = failure_answer


class ConstraintResolver:
    """Finds uniqueness conflicts at save and resolves them by merge policy (contract §4.6)."""

    def __init__(self, policy):
        self.policy = policy

    def resolve(self, context):
        merged = False
        # Each pass deletes at least one object, so the object count bounds the passes.
        for _ in range(len(context.graph) + 1):
            conflicts = self.conflicts(context)
            if not conflicts:
                return merged
            if self.policy == "error":
                raise ConstraintFailure(conflict_failure(conflicts, context.graph))
            for constraint, group in conflicts:
                members = [oid for oid in group if context.is_live(oid)]
                if len(members) < 2:
                    continue
                first_key = self.key(members[0], constraint, context.graph)
                if not any(self.key(oid, constraint, context.graph) == first_key for oid in members[1:]):
                    continue
                if len({context.graph[oid].entity for oid in members}) != 1:
                    raise ConstraintFailure(failure(MERGE_ERROR))
                self.resolve_group(members, constraint, context)
                merged = True
        return merged

    def conflicts(self, context):
        """Groups of two or more live objects with equal constrained values, one of them at
        least inserted or changed in this save. A null member never conflicts."""
        found = []
        for declaring_entity, properties in context.schema.constraints:
            groups = {}
            for oid in sorted(context.graph):
                if not context.is_live(oid):
                    continue
                if not context.schema.is_kind_of(context.graph[oid].entity, declaring_entity):
                    continue
                key = self.key(oid, (declaring_entity, properties), context.graph)
                if key is not None:
                    groups.setdefault(key, []).append(oid)
            for group in groups.values():
                if len(group) > 1 and any(oid in context.changed for oid in group):
                    found.append(((declaring_entity, properties), group))
        found.sort(key=lambda item: item[1][0])
        return found

    @staticmethod
    def key(oid, constraint, graph):
        record = graph.get(oid)
        if record is None:
            return None
        parts = []
        for name in constraint[1]:
            if name in record.attributes:
                value = record.attributes[name]
                if value is None:
                    return None
                # Tag booleans, so True never equals the integer 1.
                parts.append((type(value) is bool, value))
            else:
                members = record.relationships.get(name) or []
                if not members:
                    return None
                parts.append(("object", members[0]))
        return tuple(parts)

    def resolve_group(self, group, constraint, context):
        current = self.key(group[0], constraint, context.graph)
        # Database-level: an existing object whose saved values already matched.
        stored = next((oid for oid in group if oid not in context.inserted
                       and self.key(oid, constraint, context.saved) == current), None)
        if stored is not None:
            self.against_store(stored, [oid for oid in group if oid != stored], context)
        else:
            self.in_context(group, context)

    def against_store(self, stored, others, context):
        policy = self.policy
        if policy == "mergeByPropertyObjectTrump":
            for other in others:
                was_inserted = other in context.inserted
                # An inserted N gives all its values, nulls included; a changed N its changes.
                for name, value in list(context.graph[other].attributes.items()):
                    if was_inserted or changed_attribute(name, other, context):
                        context.set(stored, name, value)
                move_to_one_destinations(other, stored, context)
                move_to_many_members(other, stored, context)
                context.delete(other)
        elif policy == "mergeByPropertyStoreTrump":
            for other in others:
                move_to_many_members(other, stored, context)
                context.delete(other)
        elif policy == "overwrite":
            survivor = others[0]
            for other in others[1:]:
                context.delete(other)
            move_to_many_members(stored, survivor, context)
            context.delete(stored)
        elif policy == "rollback":
            for other in others:
                if other in context.inserted:
                    context.discard(other)
                else:
                    context.revert(other)

    def in_context(self, group, context):
        # A saved object survives if there is one; otherwise one of the new ones (which one is
        # unspecified, and the suite never asks).
        survivor = next((oid for oid in group if oid not in context.inserted), group[0])
        survivor_is_new = survivor in context.inserted
        for loser in group:
            if loser == survivor:
                continue
            if self.policy in ("mergeByPropertyObjectTrump", "mergeByPropertyStoreTrump"):
                loser_is_new = loser in context.inserted
                for name, value in list(context.graph[loser].attributes.items()):
                    loser_set_it = value is not None if loser_is_new else changed_attribute(name, loser, context)
                    survivor_keeps = not survivor_is_new and changed_attribute(name, survivor, context)
                    if loser_set_it and not survivor_keeps:
                        context.set(survivor, name, value)
                move_to_many_members(loser, survivor, context)
            context.delete(loser)


def changed_attribute(name, oid, context):
    original = context.saved.get(oid)
    if original is None:
        return True
    return original.attributes.get(name) != context.graph[oid].attributes.get(name)


def move_to_one_destinations(source, target, context):
    """N's to-one destinations move to D; D's old one is deleted when that rule cascades."""
    entity = context.schema.entities[context.graph[source].entity]
    for name, relationship in entity["relationships"].items():
        if relationship["isToMany"]:
            continue
        members = context.graph[source].relationships[name]
        if not members:
            continue
        destination = members[0]
        previous = (context.graph[target].relationships[name] or [None])[0]
        context.unlink(source, name, destination)
        context.link(target, name, destination)
        if previous is not None and previous != destination and context.delete_rule(relationship) == "cascade":
            context.delete(previous)


def move_to_many_members(source, target, context):
    entity = context.schema.entities[context.graph[source].entity]
    for name, relationship in entity["relationships"].items():
        if not relationship["isToMany"]:
            continue
        for member in list(context.graph[source].relationships[name]):
            context.unlink(source, name, member)
            context.link(target, name, member)


class Store(contexts.ContextRequests):
    """One open store: scenario names mapped to object ids, and the context. `handle` takes a
    request as the protocol gives it (its key and body) and returns the answer's key and body."""

    context_class = Context

    def __init__(self, exported_model):
        self.exported = exported_model
        self.schema = Schema(exported_model)
        # The contexts by name: "main", and those a scenario adds (contract 1.4), each on the
        # store or a child of another; requests go to `current`.
        self.contexts = {}
        self.current = "main"
        self.parent_of = {"main": None}
        self.context = self.context_class(self.schema)
        self.ids = {}  # scenario name -> object id, kept across saves, resets and reopens
        self.persistent = {}  # the store's rows: oid -> Record, transient attributes at their defaults
        self.versions = {}  # with several contexts: oid -> row version (Z_OPT)
        self.read_only = False

    @property
    def context(self):
        return self.contexts[self.current]

    @context.setter
    def context(self, value):
        self.contexts[self.current] = value

    def several_contexts(self):
        return len(self.contexts) > 1

    def handle(self, kind, body):
        method = getattr(self, "request_" + kind, None)
        if method is None:
            raise StoreError("unsupported", "this store does not know the request '%s'" % kind)
        if kind in ("addContext", "inContext") or not self.several_contexts():
            return method(body)
        self.synchronize(self.current)
        answer = method(body)
        context = self.context
        for key in ("object", "destination"):
            oid = self.ids.get(body.get(key)) if isinstance(body, dict) else None
            if oid is not None and oid in context.graph:
                context.registered.add(oid)
        context.registered |= context.inserted | context.changed | context.deleted
        return answer

    def live(self, name):
        oid = self.ids.get(name)
        if oid is None or not self.context.is_live(oid):
            raise StoreError("noSuchObject", "no live object named '%s'" % name)
        return oid

    def typed(self, attribute, value):
        """A request's value as the store keeps it: dates as seconds, binary values (sent as
        {"base64": ...}) as bytes, the rest as JSON gives it."""
        if value is not None and attribute["type"] == "Date":
            return seconds_from_iso(value) if isinstance(value, str) else float(value)
        if isinstance(value, dict) and "base64" in value:
            return base64.b64decode(value["base64"])
        return value

    @staticmethod
    def answered(attribute, value):
        if value is not None and attribute["type"] == "Date":
            return iso_from_seconds(value)
        if isinstance(value, bytes):
            return {"base64": base64.b64encode(value).decode("ascii")}
        return value

    # Changes

    def request_insert(self, body):
        name, entity_name = body["object"], body["entity"]
        if name in self.ids:
            raise StoreError("invalidRequest", "an object named '%s' was already inserted" % name)
        entity = self.schema.entity(entity_name)
        if entity["abstract"]:
            raise StoreError("invalidRequest", "'%s' is abstract and cannot be inserted" % entity_name)
        values = {}
        for key, value in (body.get("values") or {}).items():
            values[key] = self.typed(self.schema.attribute(entity_name, key), value)
        oid = len(self.ids)
        self.context.insert(oid, entity_name, name, values)
        self.ids[name] = oid
        return "done", {}

    def request_set(self, body):
        oid = self.live(body["object"])
        attribute = self.schema.attribute(self.context.graph[oid].entity, body["attribute"])
        self.context.set(oid, body["attribute"], self.typed(attribute, body.get("value")))
        return "done", {}

    def request_link(self, body):
        oid = self.live(body["object"])
        self.schema.relationship(self.context.graph[oid].entity, body["relationship"])
        self.context.link(oid, body["relationship"], self.live(body["destination"]))
        return "done", {}

    def request_unlink(self, body):
        oid = self.live(body["object"])
        self.schema.relationship(self.context.graph[oid].entity, body["relationship"])
        destination = self.ids.get(body["destination"])
        if destination is None:
            raise StoreError("noSuchObject", "no object named '%s'" % body["destination"])
        self.context.unlink(oid, body["relationship"], destination)
        return "done", {}

    def request_delete(self, body):
        self.context.delete(self.live(body["object"]))
        return "done", {}

    def request_save(self, body):
        policy = body.get("policy", "error")
        parent = self.parent_of[self.current]
        context = self.context
        candidate = context.copy()
        if parent is not None:
            # A child's save goes to its parent context, not to the store (contract 1.4).
            problem = candidate.commit(policy, checks_constraints=False)
            if problem is not None:
                return "saveFailed", {"_0": problem}
            self.push(context, candidate.last_saved, parent)
            self.context = candidate
            return "saved", {}
        if self.read_only and context.has_changes():
            return "saveFailed", {"_0": failure(FILE_WRITE_NO_PERMISSION)}
        several = self.several_contexts()
        resolve = (lambda c: self.resolve_conflicts(c, policy)) if several else None
        problem = candidate.commit(policy, resolve_conflicts=resolve)
        if problem is not None:
            return "saveFailed", {"_0": problem}
        self.write_rows(candidate, several)
        self.context = candidate
        return "saved", {}

    def write_rows(self, candidate, several):
        """Passes what a save on the store wrote to its rows, transient values left out."""
        if not several:
            self.persistent = {oid: self.stored(record) for oid, record in candidate.saved.items()}
            return
        for oid in candidate.last_saved:
            if oid in candidate.graph:
                self.persistent[oid] = self.stored(candidate.graph[oid])
                self.versions[oid] = self.versions.get(oid, 0) + 1
                candidate.read_versions[oid] = self.versions[oid]
            else:
                self.persistent.pop(oid, None)
                self.versions.pop(oid, None)
                candidate.read_versions.pop(oid, None)

    def stored(self, record):
        """A record as the store keeps it: transient attributes at their defaults."""
        copy_ = record.__deepcopy__(None)
        for name, attribute in self.schema.entities[record.entity]["attributes"].items():
            if attribute["isTransient"]:
                copy_.attributes[name] = attribute["default"]
        return copy_

    def request_reset(self, body):
        if self.several_contexts():
            self.context.reset({})
            self.synchronize(self.current)
        else:
            self.context.reset(self.persistent)
        return "done", {}

    def request_reopen(self, body):
        # In memory, closing and opening again on the same data is a reset (contract §4.7).
        self.reset_all(read_only=False)
        return "done", {}

    def reset_all(self, read_only):
        """Every context loses its pending changes and what it read, as a reopen does."""
        self.read_only = read_only
        if not self.several_contexts():
            self.context.reset(self.persistent)
            return
        for name in self.contexts:
            self.contexts[name].reset({})
        for name in self.contexts:
            self.synchronize(name)

    def request_reopenWithModel(self, body):
        """Closes the store and opens its saved objects with another model version (contract
        1.3): migrated when `migrate` is "lightweight" and the version hashes differ, refused with
        134100 when it is "none". On a failure nothing changes: the store keeps its objects and
        the model it had (pending changes are discarded either way, as by a reopen)."""
        if self.several_contexts():
            raise StoreError("unsupported", "this store migrates a store with one context only")
        self.reset_all(read_only=False)
        try:
            mapping = migration.plan(self.exported, body["model"], body.get("migrate", "lightweight"))
            schema = Schema(body["model"])
            saved = migration.migrate(mapping, schema, self.context.saved, Record) \
                if mapping.needs_migration else self.persistent
        except migration.OpenFailure as failure:
            return "openFailed", {"_0": {"code": failure.code, "message": failure.message}}
        self.exported, self.schema = body["model"], schema
        self.context = self.context_class(schema)
        self.context.saved = saved
        self.persistent = saved
        self.context.reset()
        return "done", {}

    # Queries

    def request_exists(self, body):
        oid = self.ids.get(body["object"])
        return "exists", {"_0": oid is not None and self.context.is_live(oid)}

    def request_value(self, body):
        oid = self.live(body["object"])
        record = self.context.graph[oid]
        attribute = self.schema.attribute(record.entity, body["attribute"])
        return "value", {"_0": self.answered(attribute, record.attributes.get(body["attribute"]))}

    def request_related(self, body):
        oid = self.live(body["object"])
        record = self.context.graph[oid]
        self.schema.relationship(record.entity, body["relationship"])
        names = [self.context.graph[member].name for member in record.relationships[body["relationship"]]]
        return "objects", {"_0": names}

    def request_count(self, body):
        self.schema.entity(body["entity"])
        count = sum(1 for oid, record in self.context.graph.items()
                    if self.context.is_live(oid) and self.schema.is_kind_of(record.entity, body["entity"]))
        return "count", {"_0": count}

    # The saved state (contract 1.2)

    def request_saved(self, body):
        """A query wrapped in "saved" reads the objects as of the last successful save and leaves
        pending changes pending: what a second context on the same coordinator sees."""
        if not isinstance(body, dict) or len(body) != 1:
            raise StoreError("invalidRequest", "'saved' wraps exactly one query")
        (kind, query), = body.items()
        if kind not in ("exists", "value", "related", "count"):
            raise StoreError("invalidRequest",
                             "only a query (exists, value, related, count) reads the saved state, not '%s'" % kind)
        view = object.__new__(type(self))
        view.schema, view.ids = self.schema, self.ids
        view.contexts, view.current, view.parent_of = {}, "main", {"main": None}
        view.context = self.context_class(self.schema)
        view.context.saved = view.context.graph = self.persistent  # read only: nothing here changes it
        return view.handle(kind, query)
