import Foundation

/// Stored by SwiftData as a Codable value.
enum StopCategory: String, Codable, CaseIterable {
    case sight
    case food
    case lodging
}
