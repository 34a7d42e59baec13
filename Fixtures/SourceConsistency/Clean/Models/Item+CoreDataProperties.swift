//
//  Item+CoreDataProperties.swift
//  Catalogue
//
//  As Xcode's "Create NSManagedObject Subclass…" writes it, then kept by hand.
//

import Foundation
import CoreData


extension Item {

    @nonobjc public class func fetchRequest() -> NSFetchRequest<Item> {
        return NSFetchRequest<Item>(entityName: "Item")
    }

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

// MARK: Generated accessors for tags
extension Item {

    @objc(addTagsObject:)
    @NSManaged public func addToTags(_ value: Tag)

    @objc(removeTagsObject:)
    @NSManaged public func removeFromTags(_ value: Tag)

    @objc(addTags:)
    @NSManaged public func addToTags(_ values: NSSet)

    @objc(removeTags:)
    @NSManaged public func removeFromTags(_ values: NSSet)

}

extension Item : Identifiable {

}
