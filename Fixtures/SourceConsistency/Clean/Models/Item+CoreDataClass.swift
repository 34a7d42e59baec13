import CoreData

final class Item: Trackable {
    var displayTitle: String { title ?? "Untitled" }
}
