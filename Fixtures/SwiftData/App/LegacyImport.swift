import Foundation
import SwiftData

// Not a mistake to report: the one-way link is deliberate and silenced where it is declared.
@Model
final class LegacyImport {
    var sourceName: String = ""
    // momlint:disable missing_inverse, cloudkit_missing_inverse
    var importedTrip: Trip?

    init(sourceName: String) {
        self.sourceName = sourceName
    }
}
