import CoreData

final class Item: Trackable {
    var displayTitle: String { title.isEmpty ? "Untitled" : title }
}
