"""Lightweight migration for the example store (contract 1.3, feature `migration`).

When momlint reopens a store with another version of its model (`reopenWithModel`), it sends
the new version as its `momlint export`, as `open` does. This module compares the two exports
the way Core Data infers a mapping model (docs/coredata-semantics.md §8):

- elements are matched by their renaming identifier (a canonical name: the element's name in
  the version it was first renamed from), else by name;
- the store needs migrating when a version hash input differs: an entity's name, parent,
  abstractness or versionHashModifier, or a property added, removed, renamed, or changed in type,
  optionality, transience, destination, inverse, cardinality, count, ordering or
  versionHashModifier (default values, validation and delete rules are not hash inputs);
- it cannot be inferred (134140) when an attribute changes type (except between the binary
  numbers Integer 16/32/64, Float and Double, which Core Data is observed to infer, converting
  the stored values: docs/migrations.md, "Observed migrations"), a relationship changes
  destination, or two hierarchies are merged;
- it fails (134110) when a migrated object is left with nil in a required attribute that has
  no default.

Standard library only; `store.py` calls `plan` and `migrate`.
"""

import struct

INCOMPATIBLE_VERSION_HASH = 134100
MIGRATION_FAILED = 134110
MISSING_MAPPING_MODEL = 134140

# Types whose changes into one another lightweight migration infers (observed), converting values.
BINARY_NUMBER_TYPES = {"Integer 16", "Integer 32", "Integer 64", "Float", "Double"}
INTEGER_TYPES = {"Integer 16", "Integer 32", "Integer 64"}


class OpenFailure(Exception):
    """Opening the saved data with the new version failed with a Core Data code."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.message = message


def canonical(element):
    return element.get("renamingIdentifier") or element["name"]


def match(older, newer, same_kind=lambda a, b: True):
    """For each element of `newer` (a list), the index of its element in `older`, or None:
    first the older element whose canonical name is the newer one's renaming identifier (or
    name), then the older element of that name, then the older element of the newer's name."""
    by_canonical, by_name = {}, {}
    for index, element in enumerate(older):
        by_canonical.setdefault(canonical(element), index)
        by_name.setdefault(element["name"], index)
    taken, result = set(), []
    for element in newer:
        key = canonical(element)
        found = None
        for candidate in (by_canonical.get(key), by_name.get(key), by_name.get(element["name"])):
            if candidate is not None and candidate not in taken and same_kind(older[candidate], element):
                found = candidate
                break
        if found is not None:
            taken.add(found)
        result.append(found)
    return result


def properties(entity):
    """An entity's stored row: attributes then relationships (own and inherited), each tagged."""
    return ([dict(p, kind="attribute") for p in entity["attributes"]]
            + [dict(p, kind="relationship") for p in entity["relationships"]])


def root(entities_by_name, name):
    while entities_by_name[name].get("parent"):
        name = entities_by_name[name]["parent"]
    return name


class Plan:
    """The inferred mapping between two exports: which older entity and property each newer
    one comes from, whether a version hash differs, and what cannot be inferred."""

    def __init__(self, older, newer):
        self.older, self.newer = older, newer
        old_entities, new_entities = older["entities"], newer["entities"]
        self.old_by_name = {e["name"]: e for e in old_entities}
        self.new_by_name = {e["name"]: e for e in new_entities}
        matches = match(old_entities, new_entities)
        # Newer entity name -> older entity name, and back.
        self.source_entity = {}
        for entity, index in zip(new_entities, matches):
            if index is not None:
                self.source_entity[entity["name"]] = old_entities[index]["name"]
        self.new_name_of = {old: new for new, old in self.source_entity.items()}
        # (newer entity, newer property) -> older property (dict), for matched entities.
        self.source_property = {}
        self.hash_changes = []
        self.not_inferable = []
        self._compare(old_entities, new_entities)

    @property
    def needs_migration(self):
        return bool(self.hash_changes)

    def _compare(self, old_entities, new_entities):
        if len(self.source_entity) != len(new_entities):
            self.hash_changes.append("an entity was added")
        if len(self.source_entity) != len(old_entities):
            self.hash_changes.append("an entity was removed")
        merged = self._merged_hierarchies()
        for entity in new_entities:
            old_name = self.source_entity.get(entity["name"])
            if old_name is None:
                continue
            old = self.old_by_name[old_name]
            label = "'%s'" % entity["name"]
            if old["name"] != entity["name"]:
                self.hash_changes.append("%s renamed from '%s'" % (label, old["name"]))
            old_parent = self.new_name_of.get(old.get("parent"), old.get("parent"))
            if old_parent != entity.get("parent"):
                self.hash_changes.append("%s has another parent" % label)
                if entity["name"] in merged:
                    self.not_inferable.append("%s merges the hierarchies of %s" % (label, ", ".join(merged[entity["name"]])))
            for key in ("isAbstract", "versionHashModifier"):
                if old.get(key) != entity.get(key):
                    self.hash_changes.append("%s %s changed" % (label, key))
            self._compare_properties(old, entity)

    def _merged_hierarchies(self):
        """Newer entities below a parent whose hierarchy now holds entities that had different
        roots before: Core Data cannot merge hierarchies."""
        old_roots_by_new_root, new_root_of = {}, {}
        for new_name, old_name in self.source_entity.items():
            if not self.new_by_name[new_name].get("parent"):
                continue
            new_root = root(self.new_by_name, new_name)
            new_root_of[new_name] = new_root
            old_roots_by_new_root.setdefault(new_root, set()).add(root(self.old_by_name, old_name))
        return {name: sorted(old_roots_by_new_root[new_root]) for name, new_root in new_root_of.items()
                if len(old_roots_by_new_root[new_root]) > 1}

    def _compare_properties(self, old_entity, new_entity):
        old_row, new_row = properties(old_entity), properties(new_entity)
        matches = match(old_row, new_row, same_kind=lambda a, b: a["kind"] == b["kind"])
        label = new_entity["name"]
        if any(index is None for index in matches) or len(set(i for i in matches if i is not None)) != len(old_row):
            self.hash_changes.append("'%s' gained or lost a property" % label)
        for prop, index in zip(new_row, matches):
            if index is None:
                continue
            old = old_row[index]
            self.source_property[(label, prop["name"])] = old
            what = "'%s.%s'" % (label, prop["name"])
            if old["name"] != prop["name"]:
                self.hash_changes.append("%s renamed from '%s'" % (what, old["name"]))
            keys = ["isOptional", "isTransient", "versionHashModifier"]
            if prop["kind"] == "attribute":
                keys.append("type")
                numeric = old["type"] in BINARY_NUMBER_TYPES and prop["type"] in BINARY_NUMBER_TYPES
                if old["type"] != prop["type"] and not prop["isTransient"] and not numeric:
                    self.not_inferable.append("%s changed type from %s to %s" % (what, old["type"], prop["type"]))
            else:
                keys += ["inverse", "isToMany", "isOrdered"]
                if old["isToMany"] == prop["isToMany"]:
                    keys += ["minCount", "maxCount"]
                if self.new_name_of.get(old["destination"], old["destination"]) != prop["destination"]:
                    self.hash_changes.append("%s has another destination" % what)
                    self.not_inferable.append("%s has another destination" % what)
            for key in keys:
                if old.get(key) != prop.get(key):
                    self.hash_changes.append("%s %s changed" % (what, key))


def plan(older, newer, migrate):
    """The mapping from `older` to `newer` (exports), or OpenFailure when opening a store
    saved under `older` with `newer` must fail before any object is read."""
    mapping = Plan(older, newer)
    if mapping.needs_migration and migrate == "none":
        raise OpenFailure(INCOMPATIBLE_VERSION_HASH, "the store's version hashes differ from the model's ("
                          + mapping.hash_changes[0] + ") and no migration was asked for")
    if mapping.needs_migration and mapping.not_inferable:
        raise OpenFailure(MISSING_MAPPING_MODEL, "no mapping model can be inferred: " + mapping.not_inferable[0])
    return mapping


def converted(value, old_type, new_type):
    """A stored number carried through a numeric type change: a floating value for Float and
    Double (a stored 1 reads back as 1.0, as WooCommerce's migration test observes); for an
    integer type, a fraction truncated toward zero (inferred, as SQLite's CAST does)."""
    if value is None or old_type == new_type or isinstance(value, bool) \
            or old_type not in BINARY_NUMBER_TYPES or new_type not in BINARY_NUMBER_TYPES:
        return value
    if new_type in INTEGER_TYPES:
        if isinstance(value, float):
            if value != value:
                return None
            if value in (float("inf"), float("-inf")):
                return 2 ** 63 - 1 if value > 0 else -(2 ** 63)
            return int(value)
        return value
    if new_type == "Float":
        return struct.unpack("f", struct.pack("f", float(value)))[0]
    return float(value)


def migrate(mapping, schema, saved, record_class):
    """The saved objects (object id -> record) moved to the new version, whose `Schema` is
    `schema`: objects of removed entities dropped, values and links carried by the matched
    properties, new attributes at their default. Raises OpenFailure (134110) when a migrated
    object is left without a value for a required attribute."""
    migrated = {}
    for oid, record in saved.items():
        new_entity = mapping.new_name_of.get(record.entity)
        if new_entity is None:
            continue  # its entity is gone, and its rows with it
        entity = schema.entities[new_entity]
        attributes = {}
        for name, attribute in entity["attributes"].items():
            source = mapping.source_property.get((new_entity, name))
            required = not attribute["isOptional"] and not attribute["isTransient"] and not attribute["isDerived"]
            if source is not None and source["kind"] == "attribute" and not attribute["isTransient"]:
                value = converted(record.attributes.get(source["name"]), source["type"], attribute["type"])
                if value is None and required:
                    # An attribute now required takes its default in place of nil (Apple: "an
                    # optional attribute becoming non-optional, and defining a default value").
                    value = attribute["default"]
            else:
                value = attribute["default"]  # a new attribute starts at its default
            if value is None and required:
                raise OpenFailure(MIGRATION_FAILED, "'%s' (%s) would have no value for the required attribute '%s', "
                                  "which has no default" % (record.name, new_entity, name))
            attributes[name] = value
        relationships = {}
        for name, relationship in entity["relationships"].items():
            source = mapping.source_property.get((new_entity, name))
            members = []
            if source is not None and source["kind"] == "relationship":
                members = list(record.relationships.get(source["name"], []))
            relationships[name] = members
        migrated[oid] = record_class(new_entity, record.name, attributes, relationships)
    for record in migrated.values():
        entity = schema.entities[record.entity]
        for name, relationship in entity["relationships"].items():
            members = [member for member in record.relationships[name] if member in migrated]
            if not relationship["isToMany"]:
                members = members[:1]  # a to-many made to-one keeps one destination (inferred)
            record.relationships[name] = members
    # Both sides of every link: a relationship whose inverse is new learns its links from
    # the side that kept them.
    for oid, record in migrated.items():
        entity = schema.entities[record.entity]
        for name, relationship in entity["relationships"].items():
            inverse = relationship.get("inverse")
            if inverse is None:
                continue
            inverse_relationship = schema.entities[migrated[record.relationships[name][0]].entity]["relationships"] \
                .get(inverse) if record.relationships[name] else None
            for member in record.relationships[name]:
                partners = migrated[member].relationships.get(inverse)
                if partners is None or oid in partners:
                    continue
                if inverse_relationship is not None and not inverse_relationship["isToMany"] and partners:
                    continue  # a to-one keeps the partner it has
                partners.append(oid)
    return migrated
