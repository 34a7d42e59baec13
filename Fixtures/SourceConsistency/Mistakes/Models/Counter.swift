import CoreData

/// Not in the model at all, but an unsigned @NSManaged property is wrong anywhere.
final class Counter: NSManagedObject {
    @NSManaged var launches: UInt64
}
