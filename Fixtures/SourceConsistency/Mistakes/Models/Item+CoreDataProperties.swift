import CoreData

extension Item {
    @NSManaged public var title: String
    @NSManaged public var colour: String?
    @NSManaged public var stock: UInt32
    @NSManaged public var rating: Int
    @NSManaged public var price: NSDecimalNumber?
    @NSManaged public var isArchived: Bool
    @NSManaged public var owner: Person?
    @NSManaged public var tags: NSSet?
}
