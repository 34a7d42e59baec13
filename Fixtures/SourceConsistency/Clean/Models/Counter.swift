import CoreData

/// Not in the model at all; a signed counter is fine anywhere.
final class Counter: NSManagedObject {
    @NSManaged var launches: Int64
}
