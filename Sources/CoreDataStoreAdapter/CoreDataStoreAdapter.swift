// Compiled only where Apple's Core Data exists. On Linux this module is empty.
//
// UNVERIFIED: momlint is developed on Linux, where this file cannot be built or run. It is kept
// small and plain so that a macOS user can run the scenarios against the real framework
// (`momlint conformance --adapter coredata`) and report where the suite and Core Data disagree.
#if canImport(CoreData)
import Conformance
import CoreData
import DataModel
import Foundation

/// Runs scenarios against Apple's Core Data: an `NSPersistentContainer` over a temporary SQLite
/// file per scenario, with the model built in code from momlint's parsed model.
public struct CoreDataStoreAdapter: StoreAdapter {
    public init() {}

    public var name: String { "coredata" }

    /// Reading the saved state apart from pending changes (a second context on the coordinator),
    /// opening the saved data with another model version (`addPersistentStore` with the
    /// migration options and a second `NSManagedObjectModel`) and several contexts (contract
    /// 1.4) are not written yet: those scenarios are skipped rather than failed.
    public var unsupportedFeatures: Set<Feature> { [.savedState, .migration, .contexts, .childContexts] }

    public func openStore(_ setup: StoreSetup) throws -> any ConformanceStore {
        try CoreDataConformanceStore(setup)
    }
}

/// One Core Data stack, used from one thread through a private-queue context's `performAndWait`.
final class CoreDataConformanceStore: ConformanceStore {
    private let model: NSManagedObjectModel
    private let directory: URL
    private let coordinator: NSPersistentStoreCoordinator
    private var context: NSManagedObjectContext
    /// Scenario names and permanent object IDs, both ways (contract §3).
    private var objectIDs: [String: NSManagedObjectID] = [:]
    private var names: [NSManagedObjectID: String] = [:]

    init(_ setup: StoreSetup) throws {
        model = try CoreDataModelBuilder(setup.model).build()
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("momlint-coredata-\(setup.scenarioID)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        try openPersistentStore()
    }

    private var storeURL: URL { directory.appendingPathComponent("store.sqlite") }

    private func openPersistentStore(readOnly: Bool = false) throws {
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: storeURL,
                                           options: readOnly ? [NSReadOnlyPersistentStoreOption: true] : nil)
        context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
    }

    func close() {
        context.performAndWait { context.reset() }
        for store in coordinator.persistentStores { try? coordinator.remove(store) }
        try? FileManager.default.removeItem(at: directory)
    }

    func perform(_ request: StoreRequest) throws -> StoreResponse {
        var result: Result<StoreResponse, Error>!
        context.performAndWait { result = Result { try handle(request) } }
        return try result.get()
    }

    private func handle(_ request: StoreRequest) throws -> StoreResponse {
        switch request {
        case .insert(let entity, let name, let values):
            let object = NSEntityDescription.insertNewObject(forEntityName: entity, into: context)
            for (key, value) in values { object.setValue(try foundationValue(value, for: key, of: object), forKey: key) }
            try context.obtainPermanentIDs(for: [object])
            objectIDs[name] = object.objectID
            names[object.objectID] = name
            return .done
        case .set(let name, let attribute, let value):
            let object = try liveObject(name)
            object.setValue(try foundationValue(value, for: attribute, of: object), forKey: attribute)
            return .done
        case .link(let name, let relationship, let destination):
            let object = try liveObject(name), target = try liveObject(destination)
            let description = try self.relationship(relationship, of: object)
            if !description.isToMany {
                object.setValue(target, forKey: relationship)
            } else if description.isOrdered {
                object.mutableOrderedSetValue(forKey: relationship).add(target)
            } else {
                object.mutableSetValue(forKey: relationship).add(target)
            }
            return .done
        case .unlink(let name, let relationship, let destination):
            let object = try liveObject(name)
            guard let id = objectIDs[destination], let target = try? context.existingObject(with: id) else { return .done }
            let description = try self.relationship(relationship, of: object)
            if !description.isToMany {
                if object.value(forKey: relationship) as? NSManagedObject == target { object.setValue(nil, forKey: relationship) }
            } else if description.isOrdered {
                object.mutableOrderedSetValue(forKey: relationship).remove(target)
            } else {
                object.mutableSetValue(forKey: relationship).remove(target)
            }
            return .done
        case .delete(let name):
            context.delete(try liveObject(name))
            // What propagatesDeletesAtEndOfEvent does at the end of an event (contract §4.2).
            context.processPendingChanges()
            return .done
        case .save(let policy):
            context.mergePolicy = NSMergePolicy(merge: Self.mergePolicyType(policy))
            do {
                try context.save()
                return .saved
            } catch let error as NSError {
                return .saveFailed(saveFailure(error))
            }
        case .reset:
            context.rollback()
            return .done
        case .reopen:
            context.reset()
            for store in coordinator.persistentStores { try coordinator.remove(store) }
            try openPersistentStore()
            return .done
        case .exists(let name):
            return .exists((try? liveObject(name)) != nil)
        case .value(let name, let attribute):
            let object = try liveObject(name)
            guard let description = object.entity.attributesByName[attribute] else {
                throw StoreAdapterError(.noSuchProperty, "'\(object.entity.name ?? "?")' has no attribute '\(attribute)'")
            }
            return .value(Self.attributeValue(object.value(forKey: attribute), type: description.attributeType))
        case .related(let name, let relationship):
            let object = try liveObject(name)
            let description = try self.relationship(relationship, of: object)
            let destinations: [NSManagedObject]
            if !description.isToMany {
                destinations = (object.value(forKey: relationship) as? NSManagedObject).map { [$0] } ?? []
            } else if description.isOrdered {
                destinations = (object.value(forKey: relationship) as? NSOrderedSet)?.array as? [NSManagedObject] ?? []
            } else {
                destinations = (object.value(forKey: relationship) as? Set<NSManagedObject>).map(Array.init) ?? []
            }
            return .objects(destinations.map { names[$0.objectID] ?? $0.objectID.uriRepresentation().absoluteString })
        case .count(let entity):
            return .count(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: entity)))
        case .refresh(let name, let mergeChanges):
            guard let id = objectIDs[name], let object = context.registeredObject(for: id) ?? (try? context.existingObject(with: id)) else {
                throw StoreAdapterError(.noSuchObject, "no object named '\(name)'")
            }
            context.refresh(object, mergeChanges: mergeChanges)
            return .done
        case .refreshAll:
            context.refreshAllObjects()
            return .done
        case .validate(let name, let attribute, let value):
            let object = try liveObject(name)
            var candidate: AnyObject? = try foundationValue(value, for: attribute, of: object) as AnyObject?
            do {
                try object.validateValue(&candidate, forKey: attribute)
                return .valid
            } catch let error as NSError {
                return .invalid(saveFailure(error))
            }
        case .changes:
            func named(_ objects: Set<NSManagedObject>) -> [String] { objects.compactMap { names[$0.objectID] } }
            return .changes(ContextChanges(hasChanges: context.hasChanges, inserted: named(context.insertedObjects),
                                           updated: named(context.updatedObjects), deleted: named(context.deletedObjects)))
        case .isDeleted(let name):
            guard let id = objectIDs[name], let object = context.registeredObject(for: id) else { return .isDeleted(false) }
            return .isDeleted(object.isDeleted)
        case .fetch(let request):
            let fetch = NSFetchRequest<NSManagedObject>(entityName: request.entity)
            // The loader parsed the predicate; NSPredicate reads the same text (contract §4.11).
            if let predicate = request.predicate { fetch.predicate = NSPredicate(format: predicate.format) }
            fetch.sortDescriptors = request.sortDescriptors.map { NSSortDescriptor(key: $0.key, ascending: $0.ascending) }
            fetch.includesPendingChanges = request.includesPendingChanges
            fetch.fetchLimit = request.fetchLimit
            fetch.fetchOffset = request.fetchOffset
            return .objects(try context.fetch(fetch).map { names[$0.objectID] ?? $0.objectID.uriRepresentation().absoluteString })
        case .reopenWithOptions(let options):
            context.reset()
            for store in coordinator.persistentStores { try coordinator.remove(store) }
            try openPersistentStore(readOnly: options.readOnly)
            return .done
        case .addContext, .inContext:
            throw StoreAdapterError(.unsupported, "the Core Data adapter runs one context; it lists 'contexts' and "
                + "'child-contexts' as unsupported")
        }
    }

    private func liveObject(_ name: String) throws -> NSManagedObject {
        guard let id = objectIDs[name], let object = try? context.existingObject(with: id), !object.isDeleted else {
            throw StoreAdapterError(.noSuchObject, "no live object named '\(name)'")
        }
        return object
    }

    private func relationship(_ name: String, of object: NSManagedObject) throws -> NSRelationshipDescription {
        guard let description = object.entity.relationshipsByName[name] else {
            throw StoreAdapterError(.noSuchProperty, "'\(object.entity.name ?? "?")' has no relationship '\(name)'")
        }
        return description
    }

    private func saveFailure(_ error: NSError) -> SaveFailure {
        let object = (error.userInfo[NSValidationObjectErrorKey] as? NSManagedObject).flatMap { names[$0.objectID] }
        let details = (error.userInfo[NSDetailedErrorsKey] as? [NSError] ?? []).map(saveFailure)
        return SaveFailure(code: error.code, object: object, key: error.userInfo[NSValidationKeyErrorKey] as? String,
                           details: details)
    }

    private func foundationValue(_ value: AttributeValue, for key: String, of object: NSManagedObject) throws -> Any? {
        switch value {
        case .null: return nil
        case .bool(let flag): return NSNumber(value: flag)
        case .integer(let number): return NSNumber(value: number)
        case .double(let number):
            if object.entity.attributesByName[key]?.attributeType == .decimalAttributeType {
                return NSDecimalNumber(value: number)
            }
            return NSNumber(value: number)
        case .string(let text):
            if object.entity.attributesByName[key]?.attributeType == .URIAttributeType { return URL(string: text) }
            return text
        case .uuid(let text): return UUID(uuidString: text)
        case .date(let seconds): return Date(timeIntervalSinceReferenceDate: seconds)
        case .binary(let bytes): return bytes
        }
    }

    static func attributeValue(_ value: Any?, type: NSAttributeType) -> AttributeValue {
        switch (value, type) {
        case (nil, _): return .null
        case (let number as NSNumber, .booleanAttributeType): return .bool(number.boolValue)
        case (let number as NSNumber, .integer16AttributeType), (let number as NSNumber, .integer32AttributeType),
             (let number as NSNumber, .integer64AttributeType): return .integer(number.int64Value)
        case (let number as NSNumber, _): return .double(number.doubleValue)
        case (let text as String, _): return .string(text)
        case (let url as URL, _): return .string(url.absoluteString)
        case (let uuid as UUID, _): return .uuid(uuid.uuidString)
        case (let date as Date, _): return .date(secondsSinceReferenceDate: date.timeIntervalSinceReferenceDate)
        case (let bytes as Data, _): return .binary(bytes)
        default: return .string(String(describing: value!))
        }
    }

    static func mergePolicyType(_ policy: MergePolicy) -> NSMergePolicyType {
        switch policy {
        case .error: .errorMergePolicyType
        case .mergeByPropertyStoreTrump: .mergeByPropertyStoreTrumpMergePolicyType
        case .mergeByPropertyObjectTrump: .mergeByPropertyObjectTrumpMergePolicyType
        case .overwrite: .overwriteMergePolicyType
        case .rollback: .rollbackMergePolicyType
        }
    }
}
#endif
