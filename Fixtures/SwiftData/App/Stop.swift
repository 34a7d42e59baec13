import Foundation
import SwiftData

@Model
final class Stop {
    var name: String = ""
    var arrival: Date?
    var latitude: Double = 0
    var longitude: Double = 0
    var category: StopCategory = StopCategory.sight
    var rating: Int16 = 0

    @Attribute(.externalStorage)
    var photo: Data?

    var trip: Trip?

    @Transient
    var isSelected = false

    init(name: String, latitude: Double, longitude: Double) {
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
    }
}
