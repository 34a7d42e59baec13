import CoreData

extension Item {
    @NSManaged public var title: String?
    @NSManaged public var color: String?
    @NSManaged public var notes: String?
    @NSManaged public var stock: Int32
    @NSManaged public var rating: Int16
    @NSManaged public var price: NSDecimalNumber?
    @NSManaged public var isArchived: Bool
    @NSManaged public var owner: Person?
    @NSManaged public var tags: NSSet?
}
