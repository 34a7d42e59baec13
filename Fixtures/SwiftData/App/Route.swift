import Foundation
import SwiftData

// Mistake: two relationships to Stop and no inverse named. SwiftData cannot tell which
// relationship of Stop answers which, so neither gets an inverse.
@Model
final class Route {
    var distance: Double = 0
    var origin: Stop?
    var destination: Stop?

    init(distance: Double) {
        self.distance = distance
    }
}
