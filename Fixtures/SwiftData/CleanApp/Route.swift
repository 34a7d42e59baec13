import Foundation
import SwiftData

// Two relationships to Stop, each with its inverse named on Stop.
@Model
final class Route {
    var distance: Double = 0
    var origin: Stop?
    var destination: Stop?

    init(distance: Double) {
        self.distance = distance
    }
}
