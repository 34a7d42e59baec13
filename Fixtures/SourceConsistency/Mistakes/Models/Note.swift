import CoreData

@objc(LegacyNote)
final class Note: NSManagedObject {
    @NSManaged var body: String?
}
