"""Switchable store defects, for measuring what the conformance suite can see.

Each fault is a plausible mistake a real Core Data-compatible store could make: delete rules
run the wrong way, order lost, a limit off by one, a merge policy confused with another. The
shim runs the store with one of them when `MOMLINT_STORE_FAULT` names it:

    MOMLINT_STORE_FAULT=reverse-to-one-rules python3 Examples/python-store/shim.py

`scripts/mutation.py` runs the suite against every fault and reports which scenarios notice
("kill") each one; a fault no scenario kills is a blind spot of the suite. The correct store
(store.py) is untouched: every fault lives here, as an override that consults `self.fault`.
"""


import copy

import contexts
import migration
import store as correct
from store import (ConstraintFailure, ConstraintResolver, Context, Store, StoreError, combined,
                   count_violation, failure, limit_violations)

# name -> (area, what the defective store does)
FAULTS = {
    # Delete rules, in both directions
    "reverse-to-one-rules": ("delete rules", "runs a to-one relationship's rule when its destination is deleted, not its source"),
    "ignore-to-many-rules": ("delete rules", "treats Cascade and Deny on to-many relationships as Nullify"),
    "cascade-as-nullify": ("delete rules", "Cascade only nullifies; destinations survive"),
    "cascade-one-level": ("delete rules", "cascaded objects are deleted but their own rules never run"),
    "nullify-does-nothing": ("delete rules", "Nullify leaves the inverse pointing at the deleted object until the save"),
    "no-action-nullifies": ("delete rules", "No Action clears the inverse like Nullify"),
    "no-action-cascades": ("delete rules", "No Action deletes the destinations like Cascade"),
    "rules-not-inherited": ("delete rules", "a rule declared on a parent entity does not run for its sub-entities"),
    "rules-run-at-save": ("delete rules", "delete rules run only at save, not before the next request"),
    "deny-ignored": ("deny", "Deny never refuses a save"),
    "deny-checked-at-delete": ("deny", "Deny is judged when the object is deleted, not at save"),
    "deny-ignores-same-save-deletes": ("deny", "Deny fails whenever the relationship is non-empty, even if its destinations are deleted too"),
    "deny-blocks-cascade": ("deny", "a cascade does not delete an object whose Deny relationship is non-empty"),
    # Propagation depth
    "recursive-propagation": ("propagation", "propagates deletes by recursion, so a deep chain exhausts the stack"),
    "propagation-depth-limit": ("propagation", "stops propagating after 1,000 levels"),
    # Many-to-many
    "many-to-many-nullify-first-partner": ("many-to-many", "Nullify detaches the deleted object from its first partner only"),
    "many-to-many-cascade-first-partner": ("many-to-many", "Cascade across a many-to-many deletes the first partner only"),
    # Ordering
    "unordered-to-many": ("ordering", "answers ordered relationships in creation order"),
    "ordered-swap-remove": ("ordering", "removing a member moves the last member into its place"),
    "ordered-relink-keeps-position": ("ordering", "a member removed and added again returns to its old position"),
    "reopen-loses-order": ("ordering", "a reopened store answers ordered relationships in creation order"),
    # Validation limits and off-by-ones
    "number-limits-exclusive": ("validation", "a number or date equal to its minimum or maximum fails"),
    "string-length-off-by-one": ("validation", "a string as long as its maximum length fails"),
    "pattern-partial-match": ("validation", "a pattern may match part of the string"),
    "null-checked-against-limits": ("validation", "a null value is checked against limits as 0 or the empty string"),
    "required-attribute-not-checked": ("validation", "a required attribute may be null"),
    "required-to-one-not-checked": ("validation", "a required to-one may be empty"),
    "empty-to-many-counted": ("validation", "an empty optional to-many fails its minimum count"),
    "max-count-off-by-one": ("validation", "a to-many holding exactly maxCount objects fails"),
    "date-codes-swapped": ("validation", "too late is reported as too soon and the other way round"),
    "single-error-wrapped": ("validation", "a single failure is wrapped in 1560"),
    "only-first-error": ("validation", "a save with several failures reports only the first"),
    # Merge policies
    "error-policy-saves-duplicates": ("merge policies", "the error policy saves uniqueness conflicts"),
    "object-trump-as-store-trump": ("merge policies", "ObjectTrump keeps the saved values"),
    "store-trump-as-object-trump": ("merge policies", "StoreTrump takes the new values"),
    "overwrite-keeps-saved-object": ("merge policies", "Overwrite keeps the saved object instead of the new one"),
    "rollback-as-overwrite": ("merge policies", "Rollback replaces the saved object with the new one"),
    "object-trump-skips-nulls": ("merge policies", "ObjectTrump does not copy an inserted object's null values"),
    "merge-leaves-to-many-members": ("merge policies", "a merge does not move the loser's to-many members"),
    "constraints-ignore-subentities": ("constraints", "conflicts are looked for within one entity, not its hierarchy"),
    "null-values-conflict": ("constraints", "null constrained values conflict with each other"),
    "conflict-omits-saved-object": ("constraints", "a uniqueness conflict names the new objects but not the saved one"),
    # Atomicity of failed saves
    "failed-save-writes": ("atomicity", "a failed save still writes its changes"),
    "failed-save-drops-changes": ("atomicity", "a failed save discards the pending changes"),
    # Reset and reopen
    "reopen-keeps-pending-changes": ("reopen", "reopen keeps unsaved changes"),
    "reset-keeps-deletions": ("reopen", "reset does not bring back deleted objects"),
    # Reading the saved state while changes are pending
    "saved-state-reads-pending": ("saved state", "answers saved-state queries from the context, pending changes included"),
    "saved-state-objects-from-context": ("saved state", "finds saved objects in the store but reads their values and relationships "
                                         "from the context, as a fetch with includesPendingChanges = false would return them"),
    # Inheritance
    "count-excludes-subentities": ("inheritance", "counting an entity leaves out its sub-entities"),
    "subentity-not-a-destination": ("inheritance", "a relationship refuses objects of a sub-entity of its destination"),
    # Defaults and inverses
    "defaults-not-applied": ("defaults", "inserted objects do not take the model's default values"),
    "inverse-not-maintained": ("inverses", "linking does not set the inverse relationship"),
    "relink-keeps-old-partner": ("inverses", "relinking a one-to-one leaves the old partner pointing at it"),
    # Opening the saved data with another model version
    "migration-ignores-renaming-identifiers": ("migration", "matches entities and properties by name only, so renamed ones lose their data"),
    "migration-defaults-not-filled": ("migration", "attributes added by the new version read nil instead of their default"),
    "migration-drops-links": ("migration", "migrated objects lose every relationship"),
    "migration-ignores-migrate-none": ("migration", "migrates when no migration was asked for, instead of failing with 134100"),
    "migration-default-change-needs-migration": ("migration", "counts a changed default value as a version hash change"),
    "migration-keeps-nil-in-required": ("migration", "leaves nil in a required attribute without default instead of failing with 134110"),
    "migration-infers-type-changes": ("migration", "migrates an attribute whose type changed instead of failing with 134140"),
    "migration-keeps-numbers-unconverted": ("migration", "keeps stored numbers as they were when their attribute changes between numeric types, instead of converting them"),
    "migration-failure-loses-data": ("migration", "a failed open leaves the store empty instead of as it was"),
    # Several contexts on one store (contract 1.4)
    "stale-save-wins": ("contexts", "no optimistic locking: a stale context's save silently overwrites what another context saved"),
    "conflict-names-no-properties": ("contexts", "a 133020 names the conflicting objects but not the properties the store changed"),
    "stale-read-refreshed-on-save": ("contexts", "a context's objects take another context's saved values at once, without a refresh"),
    "sibling-sees-pending": ("contexts", "a second context on the store reads the first context's unsaved changes"),
    "count-registered-only": ("contexts", "a count sees only the objects the context has read, not the store's other rows"),
    "conflict-object-trump-as-store-trump": ("contexts", "ObjectTrump resolves a conflict between contexts as StoreTrump"),
    "conflict-store-trump-as-object-trump": ("contexts", "StoreTrump resolves a conflict between contexts as ObjectTrump"),
    "object-trump-merges-whole-object": ("contexts", "ObjectTrump writes the context's whole object over the store's, as Overwrite does"),
    "overwrite-merges-by-property": ("contexts", "Overwrite keeps the properties only the store changed, as ObjectTrump does"),
    "rollback-keeps-own-changes": ("contexts", "Rollback keeps the context's changes, as ObjectTrump does"),
    # Child contexts
    "child-save-to-store": ("child contexts", "a child context's save is written straight to the store"),
    "child-save-skips-validation": ("child contexts", "a child context's save is not validated"),
    "child-changes-visible-before-save": ("child contexts", "the parent sees a child's changes before the child saves"),
    "child-ignores-parent-pending": ("child contexts", "a child reads the store, not its parent's unsaved changes"),
    # Refreshing, resetting, transient values
    "refresh-keeps-pending-changes": ("refresh", "refresh without merging keeps the pending changes it was told to drop"),
    "refresh-merge-drops-changes": ("refresh", "refresh with mergeChanges drops the pending changes"),
    "transient-dropped-at-save": ("refresh", "a save sets transient attributes back to their defaults in the context"),
    "transient-kept-on-refresh": ("refresh", "refreshing keeps transient values that are not pending changes"),
    "reset-keeps-values": ("refresh", "reset forgets which objects changed but keeps their values, so the next save writes them"),
    # validateValue(_:forKey:)
    "validate-maximum-exclusive": ("validate", "validateValue refuses a number equal to its maximum"),
    "validate-first-failure-only": ("validate", "validateValue reports only the first of several failures"),
    "validate-sets-value": ("validate", "validateValue also sets the value it checks"),
    # Change tracking
    "has-changes-after-save": ("change tracking", "hasChanges stays true after a save"),
    "updated-includes-inserted": ("change tracking", "updatedObjects lists inserted objects too"),
    "deleted-not-tracked": ("change tracking", "isDeleted is false for an object deleted and not yet saved"),
    # Fetch requests
    "fetch-ignores-pending-changes": ("fetch requests", "a fetch never sees pending changes (includesPendingChanges ignored)"),
    "fetch-always-pending": ("fetch requests", "a fetch with includesPendingChanges = false still sees pending changes"),
    "nil-sorts-last": ("fetch requests", "nil sorts after every value ascending"),
    "offset-after-limit": ("fetch requests", "the fetch limit is applied before the offset"),
    "case-insensitive-ignored": ("fetch requests", "the [c] option of a string comparison is ignored"),
    "between-exclusive": ("fetch requests", "BETWEEN leaves out its bounds"),
    # Store options
    "read-only-ignored": ("store options", "a store reopened read-only saves changes"),
}

CONFLICT_POLICY_SWAPS = {
    "conflict-object-trump-as-store-trump": ("mergeByPropertyObjectTrump", "mergeByPropertyStoreTrump"),
    "conflict-store-trump-as-object-trump": ("mergeByPropertyStoreTrump", "mergeByPropertyObjectTrump"),
    "object-trump-merges-whole-object": ("mergeByPropertyObjectTrump", "overwrite"),
    "overwrite-merges-by-property": ("overwrite", "mergeByPropertyObjectTrump"),
    "rollback-keeps-own-changes": ("rollback", "mergeByPropertyObjectTrump"),
}

POLICY_SWAPS = {
    "object-trump-as-store-trump": ("mergeByPropertyObjectTrump", "mergeByPropertyStoreTrump"),
    "store-trump-as-object-trump": ("mergeByPropertyStoreTrump", "mergeByPropertyObjectTrump"),
    "overwrite-keeps-saved-object": ("overwrite", "mergeByPropertyStoreTrump"),
    "rollback-as-overwrite": ("rollback", "overwrite"),
}


class FaultyContext(Context):
    """The store's context with one fault switched on; each override departs from `Context`
    only where `self.fault` says."""

    fault = None

    def __init__(self, schema):
        super().__init__(schema)
        self.denied_at_delete = set()  # deny-checked-at-delete: (oid, relationship name)
        self.reverse_denied = []       # reverse-to-one-rules: failures a reversed Deny caused
        self.deferred = []             # rules-run-at-save: objects whose rules have not run

    def copy(self):
        twin = super().copy()
        twin.denied_at_delete = set(self.denied_at_delete)
        twin.reverse_denied = list(self.reverse_denied)
        twin.deferred = list(self.deferred)
        return twin

    def reset(self, parent=None):
        deleted = set(self.deleted)
        super().reset(parent)
        self.denied_at_delete = set()
        self.reverse_denied = []
        self.deferred = []
        if self.fault == "reset-keeps-deletions":
            self.deleted = {oid for oid in deleted if oid in self.graph}

    # Rules

    def delete_rule(self, relationship):
        rule = relationship["deleteRule"]
        fault = self.fault
        if fault == "reverse-to-one-rules" and not relationship["isToMany"]:
            return "nullify"
        if fault == "ignore-to-many-rules" and relationship["isToMany"] and rule in ("cascade", "deny"):
            return "nullify"
        if fault == "cascade-as-nullify" and rule == "cascade":
            return "nullify"
        if fault == "nullify-does-nothing" and rule == "nullify":
            return "noAction"
        if fault == "no-action-nullifies" and rule == "noAction":
            return "nullify"
        if fault == "no-action-cascades" and rule == "noAction":
            return "cascade"
        if fault == "deny-ignored" and rule == "deny":
            return "nullify"
        return rule

    def delete(self, oid):
        if not self.is_live(oid):
            return
        self.deleted.add(oid)
        if self.fault == "rules-run-at-save":
            self.deferred.append(oid)
            return
        if self.fault == "recursive-propagation":
            self._propagate_recursively(oid)
            return
        self._propagate([(oid, 0)])

    def _propagate_recursively(self, oid):
        for destination in self._apply_rules(oid):
            self._propagate_recursively(destination)

    def _propagate(self, pending):
        while pending:
            current, depth = pending.pop()
            if self.fault == "propagation-depth-limit" and depth >= 1000:
                continue
            for destination in self._apply_rules(current):
                if self.fault != "cascade-one-level":
                    pending.append((destination, depth + 1))

    def _apply_rules(self, current):
        """Runs `current`'s rules (it is already marked deleted); returns the objects a cascade
        newly deleted."""
        cascaded = []
        record = self.graph[current]
        entity = self.schema.entities[record.entity]
        if self.fault == "reverse-to-one-rules":
            # Before the object's own rules let go of the holders.
            cascaded += self._reversed_to_one_rules(current, record)
        for name, relationship in entity["relationships"].items():
            rule = self.delete_rule(relationship)
            if self.fault == "rules-not-inherited" and relationship["declaredBy"] != record.entity:
                rule = "nullify"
            if rule == "deny" and self.fault == "deny-checked-at-delete":
                if any(self.is_live(member) for member in record.relationships[name]):
                    self.denied_at_delete.add((current, name))
            if rule not in ("nullify", "cascade"):
                continue
            destinations = record.relationships[name]
            if not destinations:
                continue
            inverse_name = relationship.get("inverse")
            many_to_many = relationship["isToMany"] and inverse_name is not None and \
                self.relationship_of(destinations[0], inverse_name)["isToMany"]
            record.relationships[name] = []
            for position, destination in enumerate(destinations):
                if destination not in self.graph:
                    continue
                first_only = position > 0 and many_to_many
                if inverse_name is not None and not (first_only and self.fault == "many-to-many-nullify-first-partner"):
                    self._remove_member(current, destination, inverse_name)
                if rule != "cascade" or destination in self.deleted:
                    continue
                if first_only and self.fault == "many-to-many-cascade-first-partner":
                    continue
                if self.fault == "deny-blocks-cascade" and self._has_live_deny(destination):
                    continue
                self.deleted.add(destination)
                cascaded.append(destination)
        return cascaded

    def _has_live_deny(self, oid):
        record = self.graph[oid]
        for name, relationship in self.schema.entities[record.entity]["relationships"].items():
            if relationship["deleteRule"] == "deny" and any(self.is_live(m) for m in record.relationships[name]):
                return True
        return False

    def _reversed_to_one_rules(self, current, record):
        """What a store that reads foreign-key actions backwards does: the rule of a to-one
        pointing at `current` acts on the object holding it."""
        cascaded = []
        for name, relationship in self.schema.entities[record.entity]["relationships"].items():
            inverse_name = relationship.get("inverse")
            if inverse_name is None:
                continue
            for holder in list(self.graph):
                if not self.is_live(holder) or current not in self.graph[holder].relationships.get(inverse_name, []):
                    continue
                inverse = self.relationship_of(holder, inverse_name)
                if inverse["isToMany"]:
                    continue
                if inverse["deleteRule"] == "cascade" and holder not in self.deleted:
                    self.deleted.add(holder)
                    cascaded.append(holder)
                elif inverse["deleteRule"] == "deny":
                    self.reverse_denied.append(failure(correct.DENIED_DELETE, record.name, name))
        return cascaded

    # Relationships

    def link(self, oid, name, destination):
        relationship = self.relationship_of(oid, name)
        if self.fault == "subentity-not-a-destination" and self.graph[destination].entity != relationship["destination"]:
            raise StoreError("invalidRequest", "'%s' holds '%s' objects only" % (name, relationship["destination"]))
        if self.fault == "inverse-not-maintained":
            self._add_member(destination, oid, name)
            return
        if self.fault == "relink-keeps-old-partner" and not relationship["isToMany"]:
            members = self.graph[oid].relationships[name]
            if destination in members:
                return
            self.graph[oid].relationships[name] = []
            self._add_member(destination, oid, name)
            inverse_name = relationship.get("inverse")
            if inverse_name is not None:
                self.graph[destination].relationships[inverse_name] = []
                self._add_member(oid, destination, inverse_name)
            return
        super().link(oid, name, destination)
        if self.fault == "ordered-relink-keeps-position" and relationship.get("isOrdered"):
            self._restore_saved_position(oid, name, destination)

    def _restore_saved_position(self, oid, name, destination):
        original = self.saved.get(oid)
        members = self.graph[oid].relationships[name]
        if original is None or destination not in original.relationships[name]:
            return
        members.remove(destination)
        members.insert(min(original.relationships[name].index(destination), len(members)), destination)

    def _remove_member(self, member, owner, name):
        if self.fault == "ordered-swap-remove" and owner in self.graph:
            members = self.graph[owner].relationships[name]
            if member in members and self.relationship_of(owner, name).get("isOrdered"):
                index = members.index(member)
                last = members.pop()
                if index < len(members):
                    members[index] = last
                self.changed.add(owner)
                return
        super()._remove_member(member, owner, name)

    # Save

    def commit(self, policy, resolve_conflicts=None, checks_constraints=True):
        if self.fault == "rules-run-at-save":
            deferred, self.deferred = self.deferred, []
            self._propagate([(oid, 0) for oid in deferred])
        if self.fault in POLICY_SWAPS and policy == POLICY_SWAPS[self.fault][0]:
            policy = POLICY_SWAPS[self.fault][1]
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
            resolver = FaultyResolver(policy, self.fault)
            try:
                merged = resolver.resolve(self)
            except ConstraintFailure as error:
                return error.failure
            if merged:
                problem = self.validation_failure()
                if problem is not None:
                    return problem
        self.last_saved = sorted(self.inserted | self.changed | self.deleted)
        self._purge_deleted()
        self.saved = correct.cloned(self.graph)
        self.inserted = set()
        self.changed = set()
        self.denied_at_delete = set()
        self.reverse_denied = []
        return None

    def validation_failure(self):
        failures = self.deny_failures() + self.attribute_and_count_failures()
        if self.fault == "single-error-wrapped" and len(failures) == 1:
            return failure(correct.MULTIPLE_ERRORS, details=failures)
        if self.fault == "only-first-error" and failures:
            return failures[0]
        return combined(failures)

    def deny_failures(self):
        if self.fault == "deny-checked-at-delete":
            return [failure(correct.DENIED_DELETE, self.graph[oid].name, name)
                    for oid, name in sorted(self.denied_at_delete) if oid in self.graph]
        if self.fault == "reverse-to-one-rules":
            return super().deny_failures() + self.reverse_denied
        if self.fault != "deny-ignores-same-save-deletes":
            return super().deny_failures()
        failures = []
        for oid in sorted(self.deleted):
            record = self.graph.get(oid)
            if record is None:
                continue
            for name, relationship in self.schema.entities[record.entity]["relationships"].items():
                if relationship["deleteRule"] == "deny" and any(m in self.graph for m in record.relationships[name]):
                    failures.append(failure(correct.DENIED_DELETE, record.name, name))
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
                if value is None and self.fault == "null-checked-against-limits" and attribute["type"] != "Date":
                    value = "" if attribute["type"] == "String" else 0
                if value is None:
                    if not attribute["isOptional"] and self.fault != "required-attribute-not-checked":
                        failures.append(failure(correct.MISSING_MANDATORY_PROPERTY, record.name, name))
                    continue
                for code in self.limit_violations(attribute, value):
                    failures.append(correct.with_value(failure(code, record.name, name), attribute, value))
            for name, relationship in entity["relationships"].items():
                code = self.count_violation(relationship, len(record.relationships[name]))
                if code is not None:
                    failures.append(failure(code, record.name, name))
        return failures

    def limit_violations(self, attribute, value):
        codes = limit_violations(attribute, value)
        kind, low, high = attribute["type"], attribute.get("minimum"), attribute.get("maximum")
        if self.fault == "number-limits-exclusive" and kind in correct.NUMBER_TYPES and not codes:
            if high is not None and value == high:
                codes = [correct.NUMBER_TOO_LARGE]
            elif low is not None and value == low:
                codes = [correct.NUMBER_TOO_SMALL]
        if self.fault == "number-limits-exclusive" and kind == "Date" and not codes:
            seconds = correct.seconds_from_iso(value) if isinstance(value, str) else value
            if high is not None and seconds == high:
                codes = [correct.DATE_TOO_LATE]
            elif low is not None and seconds == low:
                codes = [correct.DATE_TOO_SOON]
        if self.fault == "string-length-off-by-one" and kind == "String":
            if high is not None and len(value) == high:
                codes = codes + [correct.STRING_TOO_LONG]
        if self.fault == "pattern-partial-match" and kind == "String" and attribute["pattern"] is not None:
            codes = [code for code in codes if code != correct.STRING_PATTERN]
            if attribute["pattern"].search(value) is None:
                codes.append(correct.STRING_PATTERN)
        if self.fault == "date-codes-swapped":
            swap = {correct.DATE_TOO_LATE: correct.DATE_TOO_SOON, correct.DATE_TOO_SOON: correct.DATE_TOO_LATE}
            codes = [swap.get(code, code) for code in codes]
        return codes

    def count_violation(self, relationship, count):
        if self.fault == "required-to-one-not-checked" and not relationship["isToMany"]:
            return None
        if self.fault == "empty-to-many-counted" and relationship["isToMany"] and count == 0 \
                and relationship["minCount"] > 0:
            return correct.TOO_FEW_OBJECTS
        if self.fault == "max-count-off-by-one" and relationship["isToMany"] \
                and relationship.get("maxCount") is not None and count == relationship["maxCount"]:
            return correct.TOO_MANY_OBJECTS
        return count_violation(relationship, count)


class FaultyResolver(ConstraintResolver):
    def __init__(self, policy, fault):
        super().__init__(policy)
        self.fault = fault

    def resolve(self, context):
        if self.fault == "error-policy-saves-duplicates" and self.policy == "error":
            return False
        if self.fault == "conflict-omits-saved-object" and self.policy == "error":
            conflicts = self.conflicts(context)
            if conflicts:
                names = sorted({context.graph[oid].name for _, group in conflicts for oid in group
                                if oid in context.inserted})
                raise ConstraintFailure(failure(correct.CONSTRAINT_MERGE_ERROR, objects=names))
        return super().resolve(context)

    def conflicts(self, context):
        found = super().conflicts(context)
        if self.fault != "constraints-ignore-subentities":
            return found
        narrowed = []
        for constraint, group in found:
            by_entity = {}
            for oid in group:
                by_entity.setdefault(context.graph[oid].entity, []).append(oid)
            for members in by_entity.values():
                if len(members) > 1 and any(oid in context.changed for oid in members):
                    narrowed.append((constraint, members))
        return narrowed

    def key(self, oid, constraint, graph):
        if self.fault != "null-values-conflict":
            return ConstraintResolver.key(oid, constraint, graph)
        record = graph.get(oid)
        if record is None:
            return None
        return tuple((type(record.attributes.get(name)) is bool, record.attributes.get(name))
                     if name in record.attributes else ("object", tuple(record.relationships.get(name) or []))
                     for name in constraint[1])

    def against_store(self, stored, others, context):
        if self.policy == "mergeByPropertyObjectTrump" and self.fault == "object-trump-skips-nulls":
            for other in others:
                for name, value in list(context.graph[other].attributes.items()):
                    if value is not None:
                        context.set(stored, name, value)
                correct.move_to_one_destinations(other, stored, context)
                correct.move_to_many_members(other, stored, context)
                context.delete(other)
            return
        if self.fault == "merge-leaves-to-many-members":
            saved_move = correct.move_to_many_members
            correct.move_to_many_members = lambda source, target, ctx: None
            try:
                return super().against_store(stored, others, context)
            finally:
                correct.move_to_many_members = saved_move
        return super().against_store(stored, others, context)

    def in_context(self, group, context):
        if self.fault == "merge-leaves-to-many-members":
            saved_move = correct.move_to_many_members
            correct.move_to_many_members = lambda source, target, ctx: None
            try:
                return super().in_context(group, context)
            finally:
                correct.move_to_many_members = saved_move
        return super().in_context(group, context)


class FaultyStore(Store):
    fault = None

    def request_insert(self, body):
        answer = super().request_insert(body)
        if self.fault == "defaults-not-applied":
            record = self.context.graph[self.ids[body["object"]]]
            given = body.get("values") or {}
            for name in record.attributes:
                if name not in given:
                    record.attributes[name] = None
        return answer

    def request_save(self, body):
        parent = self.parent_of.get(self.current)
        if parent is not None and self.fault in ("child-save-to-store", "child-save-skips-validation"):
            context = self.context
            candidate = context.copy()
            if self.fault == "child-save-skips-validation":
                candidate.validation_failure = lambda: None
            problem = candidate.commit(body.get("policy", "error"), checks_constraints=False)
            candidate.__dict__.pop("validation_failure", None)
            if problem is not None:
                return "saveFailed", {"_0": problem}
            if self.fault == "child-save-to-store":
                self.write_rows(candidate, True)
            else:
                self.push(context, candidate.last_saved, parent)
            self.context = candidate
            return "saved", {}
        kind, answer = super().request_save(body)
        if kind == "saved":
            if self.fault == "transient-dropped-at-save":
                for graph in (self.context.graph, self.context.saved):
                    for oid, record in list(graph.items()):
                        graph[oid] = self.stored(record)
            return kind, answer
        if self.fault == "failed-save-writes":
            written = correct.cloned(self.context.graph)
            for oid in self.context.deleted:
                written.pop(oid, None)
            self.context.saved = written
            self.persistent = {oid: self.stored(record) for oid, record in written.items()}
        if self.fault == "failed-save-drops-changes":
            self.context.reset()
        return kind, answer

    def request_reopen(self, body):
        if self.fault == "reopen-keeps-pending-changes":
            return "done", {}
        self.reset_all(read_only=False)
        if self.fault == "reopen-loses-order":
            for graph in (self.persistent, self.context.saved, self.context.graph):
                for record in graph.values():
                    for name in record.relationships:
                        if self.schema.entities[record.entity]["relationships"][name].get("isOrdered"):
                            record.relationships[name].sort()
        return "done", {}

    def request_saved(self, body):
        (kind, query), = body.items()
        if self.fault == "saved-state-reads-pending":
            return self.handle(kind, query)
        if self.fault == "saved-state-objects-from-context" and kind in ("value", "related"):
            oid = self.ids.get(query.get("object"))
            if oid is not None and oid in self.context.saved:
                return self.handle(kind, query)
        return super().request_saved(body)

    def request_related(self, body):
        kind, answer = super().request_related(body)
        oid = self.live(body["object"])
        relationship = self.schema.relationship(self.context.graph[oid].entity, body["relationship"])
        if self.fault == "unordered-to-many" and relationship.get("isOrdered"):
            members = sorted(self.context.graph[oid].relationships[body["relationship"]])
            answer = {"_0": [self.context.graph[member].name for member in members]}
        return kind, answer

    def request_count(self, body):
        if self.fault != "count-excludes-subentities":
            return super().request_count(body)
        self.schema.entity(body["entity"])
        count = sum(1 for oid, record in self.context.graph.items()
                    if self.context.is_live(oid) and record.entity == body["entity"])
        return "count", {"_0": count}


class FaultyContextRequests:
    """The contract 1.4 faults, as overrides of `contexts.ContextRequests`."""

    fault = None

    def handle(self, kind, body):
        answer = super().handle(kind, body)
        if self.fault == "child-changes-visible-before-save" and kind not in ("inContext", "addContext", "save"):
            parent = self.parent_of.get(self.current)
            context = self.context
            if parent is not None and context.has_changes():
                self.push(context, sorted(context.inserted | context.changed | context.deleted), parent)
        return answer

    def resolve_conflicts(self, candidate, policy):
        if self.fault == "stale-save-wins":
            return None
        if self.fault in CONFLICT_POLICY_SWAPS and policy == CONFLICT_POLICY_SWAPS[self.fault][0]:
            policy = CONFLICT_POLICY_SWAPS[self.fault][1]
        outcome = super().resolve_conflicts(candidate, policy)
        if self.fault == "conflict-names-no-properties" and isinstance(outcome, dict):
            outcome["details"] = []
        return outcome

    def parent_view(self, name):
        parent = self.parent_of[name]
        if self.fault == "child-ignores-parent-pending" and parent is not None:
            return self.persistent
        if self.fault == "sibling-sees-pending" and parent is None and name != "main":
            main = self.contexts["main"]
            return {oid: record for oid, record in main.graph.items() if oid not in main.deleted}
        return super().parent_view(name)

    def synchronize(self, name):
        if self.fault == "stale-read-refreshed-on-save":
            context = self.contexts[name]
            context.registered &= context.inserted | context.changed | context.deleted
        super().synchronize(name)

    def request_count(self, body):
        if self.fault == "count-registered-only" and self.several_contexts():
            context = self.context
            return "count", {"_0": sum(1 for oid in context.registered if context.is_live(oid)
                                       and self.schema.is_kind_of(context.graph[oid].entity, body["entity"]))}
        return super().request_count(body)

    def refresh(self, oid, merge_changes):
        if self.fault == "refresh-keeps-pending-changes":
            merge_changes = True
        if self.fault == "refresh-merge-drops-changes":
            merge_changes = False
        before = self.context.graph.get(oid)
        transients = dict(before.attributes) if before is not None else {}
        super().refresh(oid, merge_changes)
        if self.fault == "transient-kept-on-refresh" and oid in self.context.graph:
            record = self.context.graph[oid]
            for name, attribute in self.schema.entities[record.entity]["attributes"].items():
                if attribute["isTransient"]:
                    record.attributes[name] = transients.get(name)

    def request_reset(self, body):
        if self.fault == "reset-keeps-values":
            context = self.context
            context.inserted, context.deleted, context.changed = set(), set(), set()
            return "done", {}
        return super().request_reset(body)

    def request_validate(self, body):
        kind, answer = super().request_validate(body)
        oid = self.live(body["object"])
        record = self.context.graph[oid]
        attribute = self.schema.attribute(record.entity, body["attribute"])
        value = self.typed(attribute, body.get("value"))
        if self.fault == "validate-maximum-exclusive" and kind == "valid" and value is not None \
                and attribute.get("maximum") is not None and attribute["type"] in correct.NUMBER_TYPES \
                and value == attribute["maximum"]:
            return "invalid", {"_0": failure(correct.NUMBER_TOO_LARGE, record.name, body["attribute"])}
        if self.fault == "validate-first-failure-only" and kind == "invalid" and answer["_0"]["code"] == correct.MULTIPLE_ERRORS:
            return "invalid", {"_0": answer["_0"]["details"][0]}
        if self.fault == "validate-sets-value":
            self.context.set(oid, body["attribute"], value)
        return kind, answer

    def request_changes(self, body):
        kind, answer = super().request_changes(body)
        context = self.context
        if self.fault == "has-changes-after-save" and context.last_saved:
            answer["_0"]["hasChanges"] = True
        if self.fault == "updated-includes-inserted":
            answer["_0"]["updated"] += answer["_0"]["inserted"]
        return kind, answer

    def request_isDeleted(self, body):
        if self.fault == "deleted-not-tracked":
            return "isDeleted", {"_0": False}
        return super().request_isDeleted(body)

    def request_fetch(self, body):
        request = dict(body["_0"])
        if self.fault == "fetch-ignores-pending-changes":
            request["includesPendingChanges"] = False
        if self.fault == "fetch-always-pending":
            request["includesPendingChanges"] = True
        if self.fault == "between-exclusive" and request.get("predicate"):
            request["predicate"] = dict(request["predicate"], expression=exclusive_between(request["predicate"]["expression"]))
        offset = 0
        if self.fault == "offset-after-limit":
            offset, request["fetchOffset"] = request.get("fetchOffset", 0), 0
        saved_order, saved_fold = contexts.order, contexts.fold
        if self.fault == "nil-sorts-last":
            contexts.order = lambda a, b: (1 if a is None else -1) if (a is None) != (b is None) else saved_order(a, b)
        if self.fault == "case-insensitive-ignored":
            contexts.fold = lambda text, comparison: saved_fold(text, dict(comparison, caseInsensitive=False))
        try:
            kind, answer = super().request_fetch({"_0": request})
        finally:
            contexts.order, contexts.fold = saved_order, saved_fold
        answer["_0"] = answer["_0"][offset:]
        return kind, answer

    def request_reopenWithOptions(self, body):
        if self.fault == "read-only-ignored":
            return super().request_reopenWithOptions({"_0": {"readOnly": False}})
        return super().request_reopenWithOptions(body)


def exclusive_between(expression):
    """The predicate with each BETWEEN {a, b} read as > a AND < b (fault between-exclusive)."""
    (kind, body), = expression.items()
    if kind in ("and", "or"):
        return {kind: {"_0": [exclusive_between(part) for part in body["_0"]]}}
    if kind == "not":
        return {kind: {"_0": exclusive_between(body["_0"])}}
    if kind == "comparison" and body["_0"]["operator"] == "BETWEEN":
        comparison = body["_0"]
        low, high = comparison["right"]["list"]["_0"]
        return {"and": {"_0": [
            {"comparison": {"_0": dict(comparison, operator=">", right={"value": {"_0": low}})}},
            {"comparison": {"_0": dict(comparison, operator="<", right={"value": {"_0": high}})}}]}}
    return expression


class LenientPlan(migration.Plan):
    """A mapping that infers what lightweight migration cannot (migration-infers-type-changes)."""

    def __init__(self, older, newer):
        super().__init__(older, newer)
        self.not_inferable = []


def without_renaming_identifiers(exported):
    exported = copy.deepcopy(exported)
    for entity in exported["entities"]:
        entity.pop("renamingIdentifier", None)
        for prop in entity["attributes"] + entity["relationships"]:
            prop.pop("renamingIdentifier", None)
    return exported


def defaults_by_attribute(exported):
    return {(entity["name"], attribute["name"]): attribute.get("defaultValue")
            for entity in exported["entities"] for attribute in entity["attributes"]}


class FaultyMigrationStore:
    """`reopenWithModel` with one migration fault (mixed into FaultyStore)."""

    def request_reopenWithModel(self, body):
        fault = self.fault or ""
        if not fault.startswith("migration-"):
            return super().request_reopenWithModel(body)
        body = dict(body)
        old_attributes = {(e["name"], a["name"]) for e in self.exported["entities"] for a in e["attributes"]}
        if fault == "migration-ignores-renaming-identifiers":
            body["model"] = without_renaming_identifiers(body["model"])
        if fault == "migration-ignores-migrate-none":
            body["migrate"] = "lightweight"
        if fault == "migration-default-change-needs-migration" and body.get("migrate") == "none" \
                and defaults_by_attribute(self.exported) != defaults_by_attribute(body["model"]):
            self.context.reset()
            return "openFailed", {"_0": {"code": migration.INCOMPATIBLE_VERSION_HASH, "message": "a default changed"}}
        saved_plan, saved_migrate, saved_converted = migration.Plan, migration.migrate, migration.converted
        if fault == "migration-keeps-numbers-unconverted":
            migration.converted = lambda value, old_type, new_type: value
        if fault == "migration-infers-type-changes":
            migration.Plan = LenientPlan
        if fault == "migration-keeps-nil-in-required":
            def lenient(mapping, schema, saved, record_class):
                relaxed = copy.deepcopy(schema)
                for entity in relaxed.entities.values():
                    for attribute in entity["attributes"].values():
                        attribute["isOptional"] = True
                return saved_migrate(mapping, relaxed, saved, record_class)
            migration.migrate = lenient
        try:
            kind, answer = super().request_reopenWithModel(body)
        finally:
            migration.Plan, migration.migrate, migration.converted = saved_plan, saved_migrate, saved_converted
        if kind == "openFailed" and fault == "migration-failure-loses-data":
            self.context = self.context_class(self.schema)
            self.persistent = {}
        if kind == "done" and fault in ("migration-defaults-not-filled", "migration-drops-links"):
            for record in self.context.saved.values():
                if fault == "migration-drops-links":
                    record.relationships = {name: [] for name in record.relationships}
                    continue
                for name in record.attributes:
                    if (record.entity, name) not in old_attributes:
                        record.attributes[name] = None
            self.context.reset()
        return kind, answer


def store_class(fault):
    """A store class with `fault` switched on, or the correct store for None."""
    if not fault:
        return Store
    if fault not in FAULTS:
        raise KeyError(fault)
    context_class = type("FaultyContext_" + fault, (FaultyContext,), {"fault": fault})
    return type("FaultyStore_" + fault, (FaultyMigrationStore, FaultyContextRequests, FaultyStore),
                {"fault": fault, "context_class": context_class})
