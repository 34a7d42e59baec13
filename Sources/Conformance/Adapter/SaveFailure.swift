/// Why a save failed, as a store reports it: a Core Data error code and, where the code
/// concerns one object, which object and which property.
///
/// A save that fails for several reasons reports code 1560 with one `details` entry per
/// reason; a single reason is reported on its own, not wrapped (contract §4).
public struct SaveFailure: Hashable, Sendable, Codable, CustomStringConvertible {
    /// An `NSCocoaErrorDomain` code (`CoreDataErrorCode`).
    public var code: Int
    /// The scenario name of the object the error is about (`NSValidationErrorObject`), if any.
    public var object: String?
    /// The property the error is about (`NSValidationErrorKey`), if any.
    public var key: String?
    /// For 1560: the individual failures (`NSDetailedErrors`). Empty otherwise.
    public var details: [SaveFailure]
    /// The value that failed validation (`NSValidationErrorValue`), for an attribute limit
    /// (1610–1680); nil when the store does not say (contract 1.1).
    public var value: AttributeValue?
    /// For a uniqueness conflict (133021): the names of every object in conflict — the
    /// conflicts' `conflictingObjects` and, against saved data, the saved object — in any
    /// order; nil when the store does not say (contract 1.1).
    public var objects: [String]?

    public init(code: Int, object: String? = nil, key: String? = nil, details: [SaveFailure] = [],
                value: AttributeValue? = nil, objects: [String]? = nil) {
        self.code = code
        self.object = object
        self.key = key
        self.details = details
        self.value = value
        self.objects = objects
    }

    /// The failure for a list of individual failures: the only one, or 1560 wrapping them.
    public static func combining(_ failures: [SaveFailure]) -> SaveFailure? {
        switch failures.count {
        case 0: nil
        case 1: failures[0]
        default: SaveFailure(code: CoreDataErrorCode.multipleErrors, details: failures)
        }
    }

    public var description: String {
        Self.describe(code: code, object: object, key: key, details: details.isEmpty ? nil : details.map(\.description),
                      value: value, objects: objects)
    }

    /// `1570 (NSValidationMissingMandatoryPropertyError) on 'alice.name': [details…]`, shared
    /// with `ExpectedFailure` so messages compare what was expected and what happened alike.
    static func describe(code: Int, object: String?, key: String?, details: [String]?,
                         value: AttributeValue? = nil, objects: [String]? = nil) -> String {
        var text = String(code)
        if let name = CoreDataErrorCode.name(of: code) { text += " (\(name))" }
        switch (object, key) {
        case let (object?, key?): text += " on '\(object).\(key)'"
        case let (object?, nil): text += " on '\(object)'"
        case let (nil, key?): text += " on key '\(key)'"
        case (nil, nil): break
        }
        if let value { text += " (value \(value))" }
        if let objects { text += " between " + objects.sorted().map { "'\($0)'" }.joined(separator: ", ") }
        if let details { text += ": [" + details.joined(separator: "; ") + "]" }
        return text
    }
}
