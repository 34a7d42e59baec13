import CoreData

final class Item: NSManagedObject {
    @NSManaged var stock: UInt32
    @NSManaged var title: String?

    func describe() -> String {
        "\(title ?? "")"
