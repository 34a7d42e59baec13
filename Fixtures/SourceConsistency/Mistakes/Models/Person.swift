import CoreData

final class Person: NSManagedObject {
    @NSManaged var name: String?
    @NSManaged var visits: Int
    @NSManaged var items: NSSet?
}
