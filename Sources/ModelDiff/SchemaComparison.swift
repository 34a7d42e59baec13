import DataModel
import Foundation
import SafeFiles
import VersionHashes

/// One comparison of two models; `changes()` walks them once.
struct SchemaComparison {
    let older: Model
    let newer: Model
    /// Newer entity index → older entity index.
    private(set) var olderMatch: [Int?] = []
    /// Older entity name → newer entity name, for entities present in both.
    private(set) var newNameOfOldEntity: [String: String] = [:]
    /// Older entity index → newer entity index, for entities present in both.
    private(set) var newIndexOfOld: [Int?] = []
    /// For each older entity: true when another older entity names it as its parent, so
    /// entities inherit its properties (`removalIsReported`).
    private let isParentInOlder: [Bool]

    init(older: Model, newer: Model) {
        self.older = older
        self.newer = newer
        var isParent = [Bool](repeating: false, count: older.entities.count)
        for entityIndex in older.entities.indices {
            if let parent = older.parentIndex(ofEntityAt: entityIndex) { isParent[parent] = true }
        }
        isParentInOlder = isParent
        matchEntities()
    }

    /// Apple: "the renaming identifier creates a canonical name, so set the renaming identifier
    /// to the name of the corresponding property in the source model (unless that property
    /// already has a renaming identifier)" (versioningGuide). So the newer element matches the
    /// older element whose canonical name (renaming ID, else name) equals its renaming ID, else
    /// the older element of that name; failing both, the older element of the same name
    /// (inferred: keeps the match when a later version drops an identifier).
    private mutating func matchEntities() {
        // Without renaming IDs every canonical name is the name itself: the model's table of
        // the first entity of each name serves.
        var byCanonical: [String: Int]?
        if older.entities.contains(where: { elementRenamingID($0.renamingIdentifier, $0.elementID) != nil }) {
            var canonicalNames: [String: Int] = [:]
            for (index, entity) in older.entities.enumerated() {
                let canonical = elementRenamingID(entity.renamingIdentifier, entity.elementID) ?? entity.name
                if canonicalNames[canonical] == nil { canonicalNames[canonical] = index }
            }
            byCanonical = canonicalNames
        }
        var taken = [Bool](repeating: false, count: older.entities.count)
        func free(_ candidate: Int?) -> Int? {
            guard let candidate, !taken[candidate] else { return nil }
            return candidate
        }
        olderMatch = newer.entities.map { entity in
            // In order: the canonical name, an older name equal to the renaming ID, the same name;
            // a lookup that repeats the one before it is skipped.
            let key = elementRenamingID(entity.renamingIdentifier, entity.elementID) ?? entity.name
            var match = byCanonical.flatMap { free($0[key]) }
            if match == nil { match = free(older.entityIndex(named: key)) }
            if match == nil, key != entity.name { match = free(older.entityIndex(named: entity.name)) }
            if let match { taken[match] = true }
            return match
        }
        newIndexOfOld = [Int?](repeating: nil, count: older.entities.count)
        for (newIndex, oldIndex) in olderMatch.enumerated() {
            if let oldIndex {
                newNameOfOldEntity[older.entities[oldIndex].name] = newer.entities[newIndex].name
                newIndexOfOld[oldIndex] = newIndex
            }
        }
    }

    /// A newer version of at least this many entities is compared on every core.
    static let concurrentEntityCount = 256

    /// Every change, and every entity whose version hash differs. Whether a change alters a hash
    /// is decided by Core Data's version hashes of both versions (`reconcileWithHashes`),
    /// computed unless given. `onEveryCore: false` compares serially whatever the size (the
    /// tests check that both ways give the same changes).
    func changes(olderHashes: ModelVersionHashes? = nil, newerHashes: ModelVersionHashes? = nil,
                 onEveryCore: Bool = true) -> (changes: [SchemaChange], entityHashChanges: [EntityHashChange]) {
        let merged = mergedHierarchies()
        let entityCount = newer.entities.count
        let hashes = ConcurrentSlots<ModelVersionHashes>(count: 2)
        // The older entities no newer one continues: removed, and listed last.
        let removedIndexes = older.entities.indices.filter { newIndexOfOld[$0] == nil }
        var result: [SchemaChange]
        if onEveryCore, entityCount >= Self.concurrentEntityCount, ProcessInfo.processInfo.activeProcessorCount > 1 {
            // Each entity's changes depend only on the two models, so runs of entities are
            // compared at once and joined in order: the output never depends on scheduling. No
            // change reads a hash before they are reconciled, so each version's hashes are two
            // more tasks beside the runs, taken first: the runs keep every core busy meanwhile.
            let runCount = 16
            let runs = ConcurrentSlots<[SchemaChange]>(count: runCount)
            ConcurrentWork.perform(iterations: 2 + runCount) { task in
                switch task {
                case 0: hashes[0] = olderHashes ?? VersionHasher.hashes(of: older)
                case 1: hashes[1] = newerHashes ?? VersionHasher.hashes(of: newer)
                default:
                    let run = task - 2
                    runs[run] = changes(ofNewerEntitiesIn: (entityCount * run / runCount)..<(entityCount * (run + 1) / runCount),
                                        merged: merged)
                }
            }
            // Every task has filled its slot when concurrentPerform returns. The runs are joined
            // on every core too: copying 180,000 changes of 10,000 entities into one array and
            // freeing the runs was a third of what the diff did on one core alone. The array has
            // room for the removed entities, so it is not copied again to append them.
            var starts = [0]
            for run in 0..<runCount { starts.append(starts[run] + runs[run]!.count) }
            result = [SchemaChange](unsafeUninitializedCapacity: starts[runCount] + removedIndexes.count) { buffer, initializedCount in
                let joined = DisjointWrites(buffer)
                ConcurrentWork.perform(iterations: runCount) { [starts] run in
                    // Taken out of its slot, the run is freed here, when this task ends.
                    let changesOfRun = runs[run]!
                    runs[run] = nil
                    _ = joined.buffer[starts[run]..<starts[run + 1]].initialize(from: changesOfRun)
                }
                initializedCount = starts[runCount]
            }
        } else {
            hashes[0] = olderHashes ?? VersionHasher.hashes(of: older)
            hashes[1] = newerHashes ?? VersionHasher.hashes(of: newer)
            result = changes(ofNewerEntitiesIn: 0..<entityCount, merged: merged)
        }
        for oldIndex in removedIndexes {
            let entity = older.entities[oldIndex]
            result.append(SchemaChange(
                kind: .removed, element: .entity, entityName: entity.name,
                details: entity.isAbstract ? "abstract entity '\(entity.name)' removed"
                    : "entity '\(entity.name)' removed with its rows",
                hashChanging: true, lightweight: true, dataLoss: !entity.isAbstract,
                sources: [.entityVersionHash, .versioningGuide], oldLocation: entity.location, newLocation: nil))
        }
        let olderHashes = hashes[0]!, newerHashes = hashes[1]!
        reconcileWithHashes(&result, olderHashes: olderHashes, newerHashes: newerHashes)
        return (result, entityHashChanges(olderHashes: olderHashes, newerHashes: newerHashes))
    }

    /// The changes of the newer entities at `range`, in order: each entity added, or compared
    /// with the older entity it continues.
    private func changes(ofNewerEntitiesIn range: Range<Int>, merged: [Int: [String]]) -> [SchemaChange] {
        var result: [SchemaChange] = []
        // Filled as parents are compared; each run keeps its own, which only saves matching a
        // parent's properties again.
        var removedAtDeclaring: [Int: Set<String>] = [:]
        let newerEntities = newer.entities, olderEntities = older.entities
        for newIndex in range {
            let entity = newerEntities[newIndex]
            guard let oldIndex = olderMatch[newIndex] else {
                result.append(SchemaChange(
                    kind: .added, element: .entity, entityName: entity.name,
                    details: "entity '\(entity.name)' added", hashChanging: true, lightweight: true,
                    dataLoss: false, sources: [.entityVersionHash, .lightweightMigration],
                    oldLocation: nil, newLocation: entity.location))
                continue
            }
            let oldEntity = olderEntities[oldIndex]
            compareEntity(oldEntity, entity, mergedWith: merged[newIndex], into: &result)
            compareProperties(oldIndex, entity, removedAtDeclaring: &removedAtDeclaring, into: &result)
            compareIndexes(oldEntity, entity, into: &result)
        }
        return result
    }

    // MARK: Version hashes

    /// The computation decides, entity by entity: when an entity hashes the same in both
    /// versions, none of its changes alters a hash, whatever the table said (a to-one's absent
    /// `maxCount` is 1: no change); when its hash differs and no change explains it (nor its
    /// parent's), a change says so (a relationship whose destination entity was renamed: the
    /// destination's name is hashed). Entities that cannot be hashed keep the table's answer.
    private func reconcileWithHashes(_ result: inout [SchemaChange], olderHashes: ModelVersionHashes,
                                     newerHashes: ModelVersionHashes) {
        // The changes of an entity come one after another, so they are grouped as runs: one
        // table entry per run, not per change.
        var runsByEntity: [String: [Range<Int>]] = [:]
        var runStart = 0
        for index in result.indices
        where index + 1 == result.count || result[index + 1].entityName != result[index].entityName {
            runsByEntity[result[index].entityName, default: []].append(runStart..<(index + 1))
            runStart = index + 1
        }
        for (newIndex, oldIndex) in olderMatch.enumerated() {
            guard let oldIndex, let oldHash = olderHashes.entities[oldIndex].hash,
                  let newHash = newerHashes.entities[newIndex].hash else { continue }
            let entity = newer.entities[newIndex]
            let own = (runsByEntity[entity.name] ?? []).joined()
            if oldHash == newHash {
                for index in own where result[index].hashChanging {
                    result[index].hashChanging = false
                    result[index].sources.append(.computedVersionHash)
                }
                continue
            }
            guard !own.contains(where: { result[$0].hashChanging }) else { continue }
            // A parent whose hash changed explains its sub-entities' (their hash includes it).
            if let parentIndex = newer.parentIndex(ofEntityAt: newIndex), let olderParent = olderMatch[parentIndex],
               olderHashes.entities[olderParent].hash != newerHashes.entities[parentIndex].hash {
                continue
            }
            result.append(SchemaChange(
                kind: .changed, element: .entity, entityName: entity.name,
                details: "'\(entity.name)' version hash changes: \(unexplainedHashChange(older.entities[oldIndex], entity))",
                hashChanging: true, lightweight: true, dataLoss: false,
                sources: [.computedVersionHash, .entityVersionHash],
                oldLocation: older.entities[oldIndex].location, newLocation: entity.location))
        }
    }

    /// Why an entity's hash changed when no compared field did: names of other entities that
    /// its relationships hash (destination, inverse), or composites it embeds.
    private func unexplainedHashChange(_ old: Entity, _ new: Entity) -> String {
        for relationship in new.relationships {
            guard let previous = old.relationships.first(where: { $0.name == relationship.name }),
                  let oldDestination = previous.destinationEntityName,
                  oldDestination != relationship.destinationEntityName else { continue }
            return "relationship '\(new.name).\(relationship.name)' points to '\(oldDestination)', "
                + "now named '\(relationship.destinationEntityName ?? "")' (a destination's name is part of the hash)"
        }
        return "an input of the hash differs that the diff does not list (a composite's elements); "
            + "the computed hashes differ"
    }

    /// Every entity whose hash differs between the versions, matched as `changes()` matches them.
    private func entityHashChanges(olderHashes: ModelVersionHashes, newerHashes: ModelVersionHashes) -> [EntityHashChange] {
        var result: [EntityHashChange] = []
        for (newIndex, oldIndex) in olderMatch.enumerated() {
            let newHash = newerHashes.entities[newIndex].hash
            let oldHash = oldIndex.flatMap { olderHashes.entities[$0].hash }
            guard oldIndex == nil || oldHash != newHash || oldHash == nil else { continue }
            result.append(EntityHashChange(olderName: oldIndex.map { older.entities[$0].name },
                                           newerName: newer.entities[newIndex].name, olderHash: oldHash, newerHash: newHash))
        }
        for (oldIndex, entity) in older.entities.enumerated() where newIndexOfOld[oldIndex] == nil {
            result.append(EntityHashChange(olderName: entity.name, newerName: nil,
                                           olderHash: olderHashes.entities[oldIndex].hash, newerHash: nil))
        }
        return result
    }

    /// Whether changing `aspect` alone, from the older property's value to the newer one's,
    /// changes a hash Core Data checks: the older property with that one field replaced is
    /// hashed and compared with the older property's hash. A property transient in both
    /// versions is in no entity's hash. Nil when either cannot be hashed (the table decides).
    func aspectChangesHash(_ aspect: SchemaChange.Aspect, _ old: Property, _ new: Property,
                           olderDeclarer: String, newerDeclarer: String) -> Bool? {
        if old.isTransient && new.isTransient { return false }
        if aspect == .isTransient { return true }
        switch (old, new) {
        case let (.attribute(a), .attribute(b)):
            var edited = a
            switch aspect {
            case .isOptional: edited.isOptional = b.isOptional
            case .attributeType:
                edited.attributeType = b.attributeType
                edited.compositeName = b.compositeName
            case .defaultValue:
                edited.defaultValueString = b.defaultValueString
                edited.defaultDateTimeInterval = b.defaultDateTimeInterval
            case .versionHashModifier: edited.versionHashModifier = b.versionHashModifier
            case .valueTransformerName: edited.valueTransformerName = b.valueTransformerName
            case .customClassName: edited.customClassName = b.customClassName
            case .allowsExternalBinaryDataStorage: edited.allowsExternalBinaryDataStorage = b.allowsExternalBinaryDataStorage
            case .preserveAfterDeletion: edited.preservesValueInHistoryOnDeletion = b.preservesValueInHistoryOnDeletion
            case .derivation:
                edited.isDerived = b.isDerived
                edited.derivationExpression = b.derivationExpression
            case .isIndexed: edited.isIndexed = b.isIndexed
            case .validation:
                edited.minValueString = b.minValueString
                edited.maxValueString = b.maxValueString
                edited.minDateTimeInterval = b.minDateTimeInterval
                edited.maxDateTimeInterval = b.maxDateTimeInterval
                edited.regularExpressionString = b.regularExpressionString
            default: return nil
            }
            guard let before = VersionHasher.attributeHash(a, in: older).hash,
                  let after = VersionHasher.attributeHash(edited, in: newer).hash else { return nil }
            return before != after
        case let (.relationship(a), .relationship(b)):
            var edited = a
            switch aspect {
            case .isOptional: edited.isOptional = b.isOptional
            case .destinationEntity:
                edited.destinationEntityName = b.destinationEntityName
                edited.inverseEntityName = b.inverseEntityName
            case .inverseRelationship:
                edited.inverseName = b.inverseName
                edited.inverseEntityName = b.inverseEntityName
            case .isToMany:
                // To-many shows in the hash only through maxCount, reported with it.
                edited.isToMany = b.isToMany
                edited.minCount = b.minCount
                edited.maxCount = b.maxCount
            case .count:
                edited.minCount = b.minCount
                edited.maxCount = b.maxCount
            case .isOrdered: edited.isOrdered = b.isOrdered
            case .deletionRule: edited.deletionRule = b.deletionRule
            case .versionHashModifier: edited.versionHashModifier = b.versionHashModifier
            default: return nil
            }
            guard let before = VersionHasher.relationshipHash(a, declaredBy: olderDeclarer).hash,
                  let after = VersionHasher.relationshipHash(edited, declaredBy: newerDeclarer).hash else { return nil }
            return before != after
        default:
            return nil
        }
    }

    // MARK: Entities

    /// For each newer entity below a parent whose hierarchy now holds, below its root, entities
    /// that had different roots in the older version: the older roots joined. The guide: "you cannot merge entity hierarchies;
    /// if two existing entities do not share a common parent in the source, they cannot share a
    /// common parent in the destination" (versioningGuide).
    private func mergedHierarchies() -> [Int: [String]] {
        var oldRootsByNewRoot: [String: Set<String>] = [:]
        var newRootOf: [Int: String] = [:]
        for (newIndex, oldIndex) in olderMatch.enumerated() {
            // Only entities below a parent in the newer version share one with anything.
            guard let oldIndex, newer.entities[newIndex].parentEntityName != nil else { continue }
            let newRoot = newer.root(of: newer.entities[newIndex]).name
            newRootOf[newIndex] = newRoot
            oldRootsByNewRoot[newRoot, default: []].insert(older.root(of: older.entities[oldIndex]).name)
        }
        var result: [Int: [String]] = [:]
        for (newIndex, newRoot) in newRootOf {
            if let roots = oldRootsByNewRoot[newRoot], roots.count > 1 { result[newIndex] = roots.sorted() }
        }
        return result
    }

    private func compareEntity(_ old: Entity, _ new: Entity, mergedWith mergedRoots: [String]?,
                               into result: inout [SchemaChange]) {
        func changed(_ aspect: SchemaChange.Aspect, _ oldValue: String?, _ newValue: String?, details: String,
                     hash: Bool, lightweight: Bool = true, loss: Bool = false, sources: [MigrationSource]) {
            result.append(SchemaChange(
                kind: .changed, element: .entity, entityName: new.name, aspect: aspect,
                oldValue: oldValue, newValue: newValue, details: details, hashChanging: hash,
                lightweight: lightweight, dataLoss: loss, sources: sources,
                oldLocation: old.location, newLocation: new.location))
        }
        if old.name != new.name {
            result.append(SchemaChange(
                kind: .renamed, element: .entity, entityName: new.name, oldName: old.name,
                details: "entity '\(old.name)' renamed to '\(new.name)'", hashChanging: true, lightweight: true,
                dataLoss: false, sources: [.entityVersionHash, .lightweightMigration],
                oldLocation: old.location, newLocation: new.location))
        }
        let oldParent = old.parentEntityName.map { newNameOfOldEntity[$0] ?? $0 }
        if oldParent != new.parentEntityName {
            let merges = mergedRoots.map { " (merges the hierarchies of \($0.map { "'\($0)'" }.joined(separator: ", ")))" } ?? ""
            changed(.parentEntity, old.parentEntityName, new.parentEntityName,
                    details: "'\(new.name)' parent entity \(describe(old.parentEntityName)) → \(describe(new.parentEntityName))\(merges)",
                    hash: true, lightweight: mergedRoots == nil, sources: [.entityVersionHash, .versioningGuide])
        }
        if old.isAbstract != new.isAbstract {
            // Inferred: an abstract entity has no instances, so rows of a concrete entity made
            // abstract have nowhere to go.
            changed(.isAbstract, String(old.isAbstract), String(new.isAbstract),
                    details: new.isAbstract ? "'\(new.name)' made abstract" : "'\(new.name)' made concrete",
                    hash: true, loss: new.isAbstract, sources: [.entityVersionHash, .inferred])
        }
        if old.versionHashModifier != new.versionHashModifier {
            changed(.versionHashModifier, old.versionHashModifier, new.versionHashModifier,
                    details: "'\(new.name)' versionHashModifier \(describe(old.versionHashModifier)) → \(describe(new.versionHashModifier))",
                    hash: true, sources: [.entityVersionHash])
        }
        if old.representedClassName != new.representedClassName {
            changed(.representedClassName, old.representedClassName, new.representedClassName,
                    details: "'\(new.name)' class \(describe(old.representedClassName)) → \(describe(new.representedClassName))",
                    hash: false, sources: [.entityVersionHash])
        }
    }

    // MARK: Properties

    struct PropertySlot {
        var property: Property
        var declaringEntity: String
    }

    /// An entity's stored properties, its own then inherited (a store's row holds both), with
    /// where each name sits: the row keeps the first property of each name, so matching reads
    /// the older row's names from here instead of reading each property again. Fetched
    /// properties are not stored and take no part in migration.
    struct StoredRow {
        private(set) var slots: [PropertySlot] = []
        /// The slots' names, in order.
        private var names: [String] = []
        /// For a row longer than `scannedCount`, where each name sits. A shorter row is scanned:
        /// comparing a few dozen names (lengths first) is cheaper than hashing each one.
        private var slotIndexByName: [String: Int]?
        static let scannedCount = 32

        init(capacity: Int) {
            slots.reserveCapacity(capacity)
            names.reserveCapacity(capacity)
            if capacity > Self.scannedCount { slotIndexByName = Dictionary(minimumCapacity: capacity) }
        }

        /// The index in `slots` of the property named `name`.
        func slotIndex(named name: String) -> Int? {
            if let slotIndexByName { return slotIndexByName[name] }
            let length = name.utf8.count
            return names.firstIndex { $0.utf8.count == length && $0 == name }
        }

        /// Adds the property unless the row holds one of its name already.
        mutating func add(_ property: Property, declaredBy owner: String) {
            let name = property.name
            if slotIndexByName != nil {
                // One lookup for the usual new name; a repeated name is put back.
                if let first = slotIndexByName!.updateValue(slots.count, forKey: name) {
                    slotIndexByName![name] = first
                    return
                }
            } else if slotIndex(named: name) != nil {
                return
            }
            names.append(name)
            slots.append(PropertySlot(property: property, declaringEntity: owner))
        }
    }

    func storedRow(of entity: Entity, in model: Model) -> StoredRow {
        let ancestors = model.ancestors(of: entity)
        let capacity = ancestors.reduce(entity.attributes.count + entity.relationships.count) {
            $0 + $1.attributes.count + $1.relationships.count
        }
        var row = StoredRow(capacity: capacity)
        for depth in 0...ancestors.count {
            let owner = depth == 0 ? entity : ancestors[depth - 1]
            for attribute in owner.attributes { row.add(.attribute(attribute), declaredBy: owner.name) }
            for relationship in owner.relationships { row.add(.relationship(relationship), declaredBy: owner.name) }
        }
        return row
    }

    private func renamingID(of property: Property) -> String? {
        switch property {
        case .attribute(let a): elementRenamingID(a.renamingIdentifier, a.elementID)
        case .relationship(let r): elementRenamingID(r.renamingIdentifier, r.elementID)
        case .fetchedProperty: nil
        }
    }

    /// Each stored property of the newer entity's row (own and inherited) with the older
    /// entity's property it continues, if any: its renaming ID names the older property's
    /// canonical name (renaming ID, else name), else an older property of that name, else one
    /// of the same name — of the same kind, each older property matched once.
    struct PropertyMatches {
        var oldSlots: [PropertySlot]
        var newSlots: [PropertySlot]
        /// For each of `newSlots`: the index of its match in `oldSlots`.
        var oldIndexOfNew: [Int?]
        /// For each of `oldSlots`: true when a newer property continues it.
        var oldIsMatched: [Bool]
    }

    func matchProperties(_ oldEntity: Entity, _ newEntity: Entity) -> PropertyMatches {
        let oldRow = storedRow(of: oldEntity, in: older)
        let oldSlots = oldRow.slots
        let newSlots = storedRow(of: newEntity, in: newer).slots
        // Without renaming IDs every canonical name is the name itself (each once in a row):
        // the name table serves.
        var byCanonical: [String: Int]?
        if oldSlots.contains(where: { renamingID(of: $0.property) != nil }) {
            var canonicalNames: [String: Int] = [:]
            for (index, slot) in oldSlots.enumerated() {
                let canonical = renamingID(of: slot.property) ?? slot.property.name
                if canonicalNames[canonical] == nil { canonicalNames[canonical] = index }
            }
            byCanonical = canonicalNames
        }
        var oldIsMatched = [Bool](repeating: false, count: oldSlots.count)
        func free(_ candidate: Int?, for property: Property) -> Int? {
            guard let candidate, !oldIsMatched[candidate], sameKind(oldSlots[candidate].property, property)
            else { return nil }
            return candidate
        }
        var matches: [Int?] = []
        matches.reserveCapacity(newSlots.count)
        for slot in newSlots {
            // In order: the canonical name, an older name equal to the renaming ID, the same name;
            // a lookup that repeats the one before it (the same table and name) is skipped.
            let property = slot.property
            let name = property.name
            let key = renamingID(of: property) ?? name
            var match: Int?
            if let byCanonical { match = free(byCanonical[key], for: property) }
            if match == nil { match = free(oldRow.slotIndex(named: key), for: property) }
            if match == nil, key != name { match = free(oldRow.slotIndex(named: name), for: property) }
            if let match { oldIsMatched[match] = true }
            matches.append(match)
        }
        return PropertyMatches(oldSlots: oldSlots, newSlots: newSlots, oldIndexOfNew: matches, oldIsMatched: oldIsMatched)
    }

    /// Properties are compared over each entity's whole row (own and inherited), so moving a
    /// property up or down a hierarchy is no change for the entities that keep it (the guide
    /// lists it as inferable). A change is reported once, at the entity that declares the
    /// property in the version that has it.
    private func compareProperties(_ oldIndex: Int, _ newEntity: Entity, removedAtDeclaring: inout [Int: Set<String>],
                                   into result: inout [SchemaChange]) {
        let oldEntity = older.entities[oldIndex]
        let matches = matchProperties(oldEntity, newEntity)
        for (slot, match) in zip(matches.newSlots, matches.oldIndexOfNew) {
            let declaredHere = slot.declaringEntity == newEntity.name
            guard let match else {
                if declaredHere { result.append(added(slot.property, in: newEntity)) }
                continue
            }
            guard declaredHere else { continue }
            compare(matches.oldSlots[match].property, slot.property, in: newEntity,
                    olderDeclarer: matches.oldSlots[match].declaringEntity, into: &result)
        }
        // The entities inheriting from this one find its removals here, instead of matching
        // its properties again (`removalIsReported`).
        var ownRemoved = Set<String>()
        for (index, slot) in matches.oldSlots.enumerated() where !matches.oldIsMatched[index] {
            if slot.declaringEntity == oldEntity.name {
                result.append(removed(slot.property, from: oldEntity, newEntity: newEntity))
                if isParentInOlder[oldIndex] { ownRemoved.insert(slot.property.name) }
            } else if !removalIsReported(slot, cache: &removedAtDeclaring) {
                // Inherited in the older version and gone from this entity's row: its parent
                // was removed (an abstract one counts no rows of its own, yet each child's rows
                // held the values) or the entity left the hierarchy. Reported here, since no
                // removal at the declaring entity covers it.
                result.append(removed(slot.property, from: oldEntity, newEntity: newEntity, inheritedFrom: slot.declaringEntity))
            }
        }
        if isParentInOlder[oldIndex] { removedAtDeclaring[oldIndex] = ownRemoved }
    }

    /// True when the older entity declaring `slot` lives on in the newer version without the
    /// property, so the removal is reported there (once) for every entity that inherited it.
    /// `cache` keeps, by older entity index, the names of the own properties its newer self lost,
    /// so each declaring entity is matched once however many entities inherit from it
    /// (`compareProperties` fills it for each parent it compares). A parent is the first older
    /// entity of its name, so the entity `older.entityIndex(named:)` finds here.
    private func removalIsReported(_ slot: PropertySlot, cache: inout [Int: Set<String>]) -> Bool {
        guard let declaringIndex = older.entityIndex(named: slot.declaringEntity) else { return false }
        if let removed = cache[declaringIndex] { return removed.contains(slot.property.name) }
        var removed = Set<String>()
        if let newIndex = newIndexOfOld[declaringIndex] {
            let declaring = older.entities[declaringIndex]
            let matches = matchProperties(declaring, newer.entities[newIndex])
            for (index, old) in matches.oldSlots.enumerated()
            where !matches.oldIsMatched[index] && old.declaringEntity == declaring.name {
                removed.insert(old.property.name)
            }
        }
        cache[declaringIndex] = removed
        return removed.contains(slot.property.name)
    }

    private func sameKind(_ a: Property, _ b: Property) -> Bool {
        switch (a, b) {
        case (.attribute, .attribute), (.relationship, .relationship): true
        default: false
        }
    }

    private func added(_ property: Property, in entity: Entity) -> SchemaChange {
        let transient = property.isTransient
        switch property {
        case .attribute(let attribute):
            // Adding an attribute is a documented pattern, so the mapping is inferred; but, as
            // "an optional attribute becoming non-optional, and defining a default value" implies,
            // a required attribute added without a default leaves every existing row without a
            // value, and the migration fails on the first one (134110).
            let needsDefault = !transient && Self.lacksValueForStoredRows(attribute)
            return SchemaChange(
                kind: .added, element: .attribute, entityName: entity.name, elementName: attribute.name,
                details: concatenated("attribute '", entity.name, ".", attribute.name, "' added",
                                      needsDefault ? " as required with no default value" : ""),
                hashChanging: true, lightweight: true, dataLoss: false, failsWhen: needsDefault ? .everyRow : nil,
                sources: [.propertyVersionHash, .lightweightMigration], oldLocation: nil, newLocation: attribute.location)
        case .relationship(let relationship):
            return SchemaChange(
                kind: .added, element: .relationship, entityName: entity.name, elementName: relationship.name,
                details: concatenated("relationship '", entity.name, ".", relationship.name, "' added"), hashChanging: true,
                lightweight: true, dataLoss: false, sources: [.relationshipVersionHash, .versioningGuide],
                oldLocation: nil, newLocation: relationship.location)
        case .fetchedProperty(let fetched):
            return SchemaChange(
                kind: .added, element: .fetchedProperty, entityName: entity.name, elementName: fetched.name,
                details: "fetched property '\(entity.name).\(fetched.name)' added", hashChanging: false,
                lightweight: true, dataLoss: false, sources: [.inferred], oldLocation: nil, newLocation: fetched.location)
        }
    }

    private func removed(_ property: Property, from oldEntity: Entity, newEntity: Entity,
                         inheritedFrom ancestor: String? = nil) -> SchemaChange {
        let transient = property.isTransient
        let inherited = ancestor.map { " (inherited from '\($0)')" } ?? ""
        switch property {
        case .attribute(let attribute):
            return SchemaChange(
                kind: .removed, element: .attribute, entityName: newEntity.name, elementName: attribute.name,
                details: concatenated(transient ? "transient attribute '" : "attribute '", oldEntity.name, ".", attribute.name, "'",
                                      inherited, transient ? " removed" : " removed with its values"),
                hashChanging: true, lightweight: true, dataLoss: !transient,
                sources: [.propertyVersionHash, .lightweightMigration], oldLocation: attribute.location, newLocation: nil)
        case .relationship(let relationship):
            // Inferred: when the inverse survives, the link is still stored on its side.
            let inverseSurvives = relationship.inverseName.map { inverse in
                relationship.destinationEntityName.flatMap { newNameOfOldEntity[$0] }
                    .flatMap(newer.entityIndex(named:))
                    .map { newer.hasProperty(named: inverse, inEntityAt: $0) } ?? false
            } ?? false
            return SchemaChange(
                kind: .removed, element: .relationship, entityName: newEntity.name, elementName: relationship.name,
                details: concatenated("relationship '", oldEntity.name, ".", relationship.name, "'", inherited, " removed",
                                      transient || inverseSurvives ? "" : " with its links"),
                hashChanging: true, lightweight: true, dataLoss: !transient && !inverseSurvives,
                sources: [.relationshipVersionHash, .versioningGuide, .inferred],
                oldLocation: relationship.location, newLocation: nil)
        case .fetchedProperty(let fetched):
            return SchemaChange(
                kind: .removed, element: .fetchedProperty, entityName: newEntity.name, elementName: fetched.name,
                details: "fetched property '\(oldEntity.name).\(fetched.name)' removed", hashChanging: false,
                lightweight: true, dataLoss: false, sources: [.inferred], oldLocation: fetched.location, newLocation: nil)
        }
    }

    private func compare(_ old: Property, _ new: Property, in entity: Entity, olderDeclarer: String,
                         into result: inout [SchemaChange]) {
        let element: SchemaChange.Element = new.asAttribute != nil ? .attribute : .relationship
        let label = "'\(entity.name).\(new.name)'"
        func changed(_ aspect: SchemaChange.Aspect, _ oldValue: String?, _ newValue: String?, _ what: String,
                     _ classified: AspectClassification) {
            // Made required, or made persistent, with no default: rows of the older version may
            // hold no value (all of them when the attribute was transient).
            let failsWhen: SchemaChange.MissingValueFailure? = switch (aspect, new) {
            case (.isOptional, .attribute(let attribute)) where !attribute.isTransient && Self.lacksValueForStoredRows(attribute):
                .rowsWithoutValue
            case (.isTransient, .attribute(let attribute)) where !attribute.isTransient && Self.lacksValueForStoredRows(attribute):
                .everyRow
            default:
                nil
            }
            var details = "\(label) \(what) \(describe(oldValue)) → \(describe(newValue))"
            if aspect == .attributeType, classified.dataLoss,
               let numeric = NumericTypeChange(from: old.asAttribute?.attributeType, to: new.asAttribute?.attributeType) {
                details += ": \(numeric.loss)"
            }
            // The computation wins over the table where both can say (`aspectChangesHash`).
            let computed = aspectChangesHash(aspect, old, new, olderDeclarer: olderDeclarer, newerDeclarer: entity.name)
            result.append(SchemaChange(
                kind: .changed, element: element, entityName: entity.name, elementName: new.name, aspect: aspect,
                oldValue: oldValue, newValue: newValue,
                details: details,
                hashChanging: computed ?? classified.hashChanging, lightweight: classified.lightweight,
                dataLoss: classified.dataLoss, altersStoredValuesUnhashed: classified.altersStoredValuesUnhashed,
                failsWhen: failsWhen, sources: classified.sources + (computed == nil ? [] : [.computedVersionHash]),
                oldLocation: old.location, newLocation: new.location))
        }
        if old.name != new.name {
            result.append(SchemaChange(
                kind: .renamed, element: element, entityName: entity.name, elementName: new.name, oldName: old.name,
                details: "\(element.rawValue) '\(entity.name).\(old.name)' renamed to '\(new.name)'",
                hashChanging: true, lightweight: true, dataLoss: false,
                sources: [.propertyVersionHash, .lightweightMigration], oldLocation: old.location, newLocation: new.location))
        }
        let oldTransient = old.isTransient, newTransient = new.isTransient
        if oldTransient != newTransient {
            // Persistent → transient: the stored values are dropped, as for a removal.
            // Transient → persistent: a new column, as for an addition (inferred from both).
            changed(.isTransient, String(oldTransient), String(newTransient), "transient",
                    AspectClassification(hashChanging: true, dataLoss: newTransient, sources: [.propertyVersionHash, .inferred]))
        }
        switch (old, new) {
        case let (.attribute(a), .attribute(b)):
            compareAttribute(a, b, transient: newTransient, changed: changed)
        case let (.relationship(a), .relationship(b)):
            compareRelationship(a, b, changed: changed)
        default:
            break
        }
    }

    /// How one changed aspect of a property is classified before its version hash is computed
    /// (`aspectChangesHash` wins over `hashChanging` where it can say), each answer by name.
    struct AspectClassification {
        /// The documented table's answer: the aspect is an input of the version hash.
        var hashChanging: Bool
        var lightweight = true
        var dataLoss = false
        var altersStoredValuesUnhashed = false
        var sources: [MigrationSource]
    }

    private func compareAttribute(
        _ a: Attribute, _ b: Attribute, transient: Bool,
        changed: (SchemaChange.Aspect, String?, String?, String, AspectClassification) -> Void
    ) {
        if a.attributeType != b.attributeType {
            // Type changes are not among the documented inferable patterns; between binary
            // numbers Core Data is observed to infer them and convert the values
            // (`NumericTypeChange`), and a narrowing one loses what the new type cannot hold.
            let numeric = NumericTypeChange(from: a.attributeType, to: b.attributeType)
            let truncates = numeric?.narrows == true && !transient
            changed(.attributeType, a.attributeType?.xmlName, b.attributeType?.xmlName, "type", numeric == nil
                ? AspectClassification(hashChanging: true, lightweight: transient, sources: [.attributeVersionHash, .lightweightMigration])
                : AspectClassification(hashChanging: true, dataLoss: truncates,
                                       sources: [.attributeVersionHash, .observedMigrations] + (truncates ? [.inferred] : [])))
        }
        if a.isOptional != b.isOptional {
            // "An optional attribute becoming non-optional, and defining a default value": without
            // a default the mapping is still inferred, and the migration fails on rows that hold
            // nil (`failsWhen`, 134110).
            changed(.isOptional, a.isOptional ? "optional" : "required", b.isOptional ? "optional" : "required",
                    "optionality",
                    AspectClassification(hashChanging: true, sources: [.propertyVersionHash, .lightweightMigration]))
        }
        let oldDefault = a.defaultValueString ?? a.defaultDateTimeInterval
        let newDefault = b.defaultValueString ?? b.defaultDateTimeInterval
        if oldDefault != newDefault {
            changed(.defaultValue, oldDefault, newDefault, "default value",
                    AspectClassification(hashChanging: false, sources: [.attributeVersionHash]))
        }
        if a.versionHashModifier != b.versionHashModifier {
            changed(.versionHashModifier, a.versionHashModifier, b.versionHashModifier, "versionHashModifier",
                    AspectClassification(hashChanging: true, sources: [.propertyVersionHash]))
        }
        // Neither the transformer nor the decoded class is an input of the version hash, yet the
        // transformer decides how the stored bytes are read back: stores are opened without
        // migration. Only a change away from a named transformer is flagged: moving from the
        // default keyed unarchiver to NSSecureUnarchiveFromData (or a subclass of it, the usual
        // reason for a custom name) reads the same keyed archives (inferred; docs/migrations.md).
        if a.valueTransformerName != b.valueTransformerName {
            let readsOldFormat = Self.isKeyedArchiveTransformer(a.valueTransformerName)
                || Self.keepsTransformer(named: a.valueTransformerName, in: b)
            changed(.valueTransformerName, a.valueTransformerName, b.valueTransformerName, "value transformer",
                    AspectClassification(hashChanging: false,
                                         altersStoredValuesUnhashed: !transient && !readsOldFormat && !hashChangedElsewhere(a, b),
                                         sources: [.attributeVersionHash, .inferred]))
        }
        if a.customClassName != b.customClassName {
            changed(.customClassName, a.customClassName, b.customClassName, "custom class",
                    AspectClassification(hashChanging: false, sources: [.attributeVersionHash, .inferred]))
        }
        if a.allowsExternalBinaryDataStorage != b.allowsExternalBinaryDataStorage {
            changed(.allowsExternalBinaryDataStorage, String(a.allowsExternalBinaryDataStorage),
                    String(b.allowsExternalBinaryDataStorage), "allows external storage",
                    AspectClassification(hashChanging: false, sources: [.attributeVersionHash, .inferred]))
        }
        if a.preservesValueInHistoryOnDeletion != b.preservesValueInHistoryOnDeletion {
            // NSAttributeDescription: "preservesValueInHistoryOnDeletion" is among the inputs
            // of the attribute's hash (a byte of its own, docs/version-hashes.md).
            changed(.preserveAfterDeletion, String(a.preservesValueInHistoryOnDeletion),
                    String(b.preservesValueInHistoryOnDeletion), "preserve after deletion",
                    AspectClassification(hashChanging: true, sources: [.attributeVersionHash, .computedVersionHash]))
        }
        if a.isDerived != b.isDerived || a.derivationExpression != b.derivationExpression {
            changed(.derivation, a.derivationExpression, b.derivationExpression, "derivation",
                    AspectClassification(hashChanging: false, sources: [.attributeVersionHash, .inferred]))
        }
        if a.isIndexed != b.isIndexed {
            changed(.isIndexed, String(a.isIndexed), String(b.isIndexed), "indexed",
                    AspectClassification(hashChanging: false, sources: [.attributeVersionHash]))
        }
        let oldValidation = validation(a), newValidation = validation(b)
        if oldValidation != newValidation {
            changed(.validation, oldValidation, newValidation, "validation",
                    AspectClassification(hashChanging: false, sources: [.attributeVersionHash]))
        }
    }

    /// A required attribute with no default value whose value Core Data does not compute
    /// (a derived attribute is not a gap: NSDerivedAttributeDescription's value "is updated when
    /// you save"; that a migration computes it for old rows too is inferred).
    static func lacksValueForStoredRows(_ attribute: Attribute) -> Bool {
        !attribute.isOptional && !attribute.hasDefaultValue && !attribute.isDerived
    }

    /// The transformers that read keyed archives, Core Data's default format for a transformable
    /// attribute (nil or empty: the default, NSKeyedUnarchiveFromData).
    static func isKeyedArchiveTransformer(_ name: String?) -> Bool {
        guard let name, !name.isEmpty else { return true }
        return ["NSKeyedUnarchiveFromData", "NSSecureUnarchiveFromData", "NSSecureUnarchiveFromDataTransformer"]
            .contains(name)
    }

    /// True when the newer attribute names no transformer but keeps the old name in its userInfo:
    /// apps that register transformers at run time read the name from there (inferred from
    /// real models, e.g. a `transformer` userInfo entry).
    static func keepsTransformer(named name: String?, in attribute: Attribute) -> Bool {
        guard let name, !name.isEmpty, (attribute.valueTransformerName ?? "").isEmpty else { return false }
        return attribute.userInfo.entries.contains { $0.value == name }
    }

    /// True when an input of the attribute's hash changed too, so stores are migrated anyway.
    private func hashChangedElsewhere(_ a: Attribute, _ b: Attribute) -> Bool {
        a.attributeType != b.attributeType || a.isOptional != b.isOptional || a.isTransient != b.isTransient
            || a.versionHashModifier != b.versionHashModifier || a.name != b.name
    }

    private func validation(_ a: Attribute) -> String? {
        let parts = [("min", a.minValueString ?? a.minDateTimeInterval), ("max", a.maxValueString ?? a.maxDateTimeInterval),
                     ("regex", a.regularExpressionString)]
            .compactMap { name, value in value.map { "\(name) \($0)" } }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    private func compareRelationship(
        _ a: Relationship, _ b: Relationship,
        changed: (SchemaChange.Aspect, String?, String?, String, AspectClassification) -> Void
    ) {
        let oldDestination = a.destinationEntityName.map { newNameOfOldEntity[$0] ?? $0 }
        if oldDestination != b.destinationEntityName {
            // Not among the documented patterns: the stored links point at rows of another entity.
            changed(.destinationEntity, a.destinationEntityName, b.destinationEntityName, "destination",
                    AspectClassification(hashChanging: true, lightweight: false,
                                         sources: [.relationshipVersionHash, .lightweightMigration]))
        }
        if a.inverseName != b.inverseName {
            // Inferred: the guide lets relationships be added, removed and renamed freely.
            changed(.inverseRelationship, a.inverseName, b.inverseName, "inverse",
                    AspectClassification(hashChanging: true, sources: [.relationshipVersionHash, .inferred]))
        }
        if a.isToMany != b.isToMany {
            // "Change a relationship from to-one to to-many" is inferable; the other way keeps
            // one destination per object (inferred: the others are lost).
            let keepsOneLink = a.isToMany && !b.isToMany && !b.isTransient
            changed(.isToMany, a.isToMany ? "to-many" : "to-one", b.isToMany ? "to-many" : "to-one", "cardinality",
                    AspectClassification(hashChanging: true, dataLoss: keepsOneLink,
                                         sources: [.relationshipVersionHash, .versioningGuide] + (keepsOneLink ? [.inferred] : [])))
        } else {
            let oldCount = "\(a.minCount ?? 0)…\(a.maxCount ?? 0)", newCount = "\(b.minCount ?? 0)…\(b.maxCount ?? 0)"
            if oldCount != newCount {
                changed(.count, oldCount, newCount, "count",
                        AspectClassification(hashChanging: true, sources: [.relationshipVersionHash, .inferred]))
            }
        }
        if a.isOrdered != b.isOrdered {
            // Not among the documented hash inputs, but the guide lists ordering changes as a
            // migration pattern, so stores must be migrated (inferred).
            changed(.isOrdered, String(a.isOrdered), String(b.isOrdered), "ordered",
                    AspectClassification(hashChanging: true, sources: [.versioningGuide, .inferred]))
        }
        if a.isOptional != b.isOptional {
            changed(.isOptional, a.isOptional ? "optional" : "required", b.isOptional ? "optional" : "required", "optionality",
                    AspectClassification(hashChanging: true, sources: [.propertyVersionHash, .inferred]))
        }
        if a.deletionRule != b.deletionRule {
            changed(.deletionRule, a.deletionRule.xmlName, b.deletionRule.xmlName, "delete rule",
                    AspectClassification(hashChanging: false, sources: [.relationshipVersionHash]))
        }
        if a.versionHashModifier != b.versionHashModifier {
            changed(.versionHashModifier, a.versionHashModifier, b.versionHashModifier, "versionHashModifier",
                    AspectClassification(hashChanging: true, sources: [.propertyVersionHash]))
        }
    }

    // MARK: Fetch indexes and uniqueness constraints

    /// Fetch indexes are no input of an entity's version hash; uniqueness constraints are (each
    /// constraint's names joined with `.`, sorted, docs/version-hashes.md): adding or removing
    /// one makes stores need a migration, which recreates the store's unique index.
    private func compareIndexes(_ old: Entity, _ new: Entity, into result: inout [SchemaChange]) {
        let oldIndexes = Dictionary(old.fetchIndexes.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let newNames = Set(new.fetchIndexes.map(\.name))
        func listed(_ index: FetchIndex) -> String {
            index.elements.map { "\($0.property)\($0.order == "descending" ? " desc" : "")" }.joined(separator: ", ")
        }
        for index in new.fetchIndexes {
            let elements = listed(index)
            guard let previous = oldIndexes[index.name] else {
                result.append(SchemaChange(
                    kind: .added, element: .fetchIndex, entityName: new.name, elementName: index.name,
                    details: "fetch index '\(new.name).\(index.name)' (\(elements)) added", hashChanging: false,
                    lightweight: true, dataLoss: false, sources: [.entityVersionHash, .inferred],
                    oldLocation: nil, newLocation: index.location))
                continue
            }
            let previousElements = listed(previous)
            if previousElements != elements {
                result.append(SchemaChange(
                    kind: .changed, element: .fetchIndex, entityName: new.name, elementName: index.name,
                    aspect: .indexElements, oldValue: previousElements, newValue: elements,
                    details: "fetch index '\(new.name).\(index.name)' (\(previousElements)) → (\(elements))",
                    hashChanging: false, lightweight: true, dataLoss: false, sources: [.entityVersionHash, .inferred],
                    oldLocation: previous.location, newLocation: index.location))
            }
        }
        for index in old.fetchIndexes where !newNames.contains(index.name) {
            result.append(SchemaChange(
                kind: .removed, element: .fetchIndex, entityName: new.name, elementName: index.name,
                details: "fetch index '\(old.name).\(index.name)' removed", hashChanging: false, lightweight: true,
                dataLoss: false, sources: [.entityVersionHash, .inferred], oldLocation: index.location, newLocation: nil))
        }
        // Constraints compare by their members, with renamed properties mapped to new names.
        guard !old.uniquenessConstraints.isEmpty || !new.uniquenessConstraints.isEmpty else { return }
        let renamed = renamedProperties(old, new)
        let oldConstraints = old.uniquenessConstraints.map { ($0, $0.propertyNames.map { renamed[$0] ?? $0 }) }
        let newConstraints = new.uniquenessConstraints.map { ($0, $0.propertyNames) }
        for (constraint, names) in newConstraints where !oldConstraints.contains(where: { $0.1 == names }) {
            let joined = names.joined(separator: ",")
            result.append(SchemaChange(
                kind: .added, element: .uniquenessConstraint, entityName: new.name, elementName: joined,
                details: "uniqueness constraint '\(new.name)' (\(joined)) added", hashChanging: true,
                lightweight: true, dataLoss: false, sources: [.entityVersionHash, .computedVersionHash],
                oldLocation: nil, newLocation: constraint.location))
        }
        for (constraint, names) in oldConstraints where !newConstraints.contains(where: { $0.1 == names }) {
            let joined = constraint.propertyNames.joined(separator: ",")
            result.append(SchemaChange(
                kind: .removed, element: .uniquenessConstraint, entityName: new.name, elementName: joined,
                details: "uniqueness constraint '\(old.name)' (\(joined)) removed", hashChanging: true,
                lightweight: true, dataLoss: false, sources: [.entityVersionHash, .computedVersionHash],
                oldLocation: constraint.location, newLocation: nil))
        }
    }

    /// Old property name → new name, for the entity's own properties matched by renaming ID.
    private func renamedProperties(_ old: Entity, _ new: Entity) -> [String: String] {
        var result: [String: String] = [:]
        // Read at the first renaming ID that differs from its name: most entities have none.
        var oldNames: Set<String>?
        func note(renamingID id: String?, of name: String) {
            guard let id, id != name else { return }
            let names = oldNames ?? Set(old.attributes.map(\.name) + old.relationships.map(\.name))
            oldNames = names
            if names.contains(id) { result[id] = name }
        }
        for attribute in new.attributes {
            note(renamingID: elementRenamingID(attribute.renamingIdentifier, attribute.elementID), of: attribute.name)
        }
        for relationship in new.relationships {
            note(renamingID: elementRenamingID(relationship.renamingIdentifier, relationship.elementID), of: relationship.name)
        }
        return result
    }
}

func describe(_ value: String?) -> String {
    value.map { "'\($0)'" } ?? "none"
}
