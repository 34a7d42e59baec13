import Conformance

/// Why a save was refused, in Core Data's terms: an `NSCocoaErrorDomain` code
/// (`CoreDataErrorCode`), the object (`NSValidationErrorObject`) and the property
/// (`NSValidationErrorKey`) where the code concerns one, and for 1560 the individual failures.
public struct ValidationFailure: Hashable, Sendable, CustomStringConvertible {
    public var code: Int
    public var object: ObjectID?
    public var key: String?
    public var details: [ValidationFailure]
    /// The value that broke an attribute limit (`NSValidationErrorValue`).
    public var value: AttributeValue?
    /// The objects of a uniqueness conflict (133021).
    public var objects: [ObjectID]?

    public init(code: Int, object: ObjectID? = nil, key: String? = nil, details: [ValidationFailure] = [],
                value: AttributeValue? = nil, objects: [ObjectID]? = nil) {
        self.code = code
        self.object = object
        self.key = key
        self.details = details
        self.value = value
        self.objects = objects
    }

    /// The only failure, or 1560 wrapping several (a single one is never wrapped).
    static func combining(_ failures: [ValidationFailure]) -> ValidationFailure? {
        switch failures.count {
        case 0: nil
        case 1: failures[0]
        default: ValidationFailure(code: CoreDataErrorCode.multipleErrors, details: failures)
        }
    }

    public var description: String {
        var text = String(code)
        if let name = CoreDataErrorCode.name(of: code) { text += " (\(name))" }
        if let object { text += " on object \(object)" }
        if let key { text += " key '\(key)'" }
        if !details.isEmpty { text += ": [" + details.map(\.description).joined(separator: "; ") + "]" }
        return text
    }
}

/// A save that was refused: nothing was written, and the pending changes are still pending
/// (a later save fails the same way until they are fixed or reset).
public struct SaveFailedError: Error, Hashable, Sendable, CustomStringConvertible {
    public var failure: ValidationFailure

    public var description: String { "save failed: \(failure)" }
}
