import CoreData

/// The abstract base of everything the catalogue tracks.
class Trackable: NSManagedObject {
    @NSManaged var createdAt: Date
}
