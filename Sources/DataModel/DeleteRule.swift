/// What happens to a relationship's destinations when its source object is deleted.
///
/// Raw values are those of `NSDeleteRule` (CoreData's `NSRelationshipDescription.h`);
/// semantics: https://developer.apple.com/documentation/coredata/nsdeleterule
public enum DeleteRule: Hashable, Sendable, CustomStringConvertible {
    case noAction
    case nullify
    case cascade
    case deny
    /// A spelling Core Data does not know; kept so a rule can name it.
    case unknown(String)

    public init(xmlName: String) {
        switch xmlName {
        case "No Action": self = .noAction
        case "Nullify": self = .nullify
        case "Cascade": self = .cascade
        case "Deny": self = .deny
        default: self = .unknown(xmlName)
        }
    }

    public var xmlName: String {
        switch self {
        case .noAction: "No Action"
        case .nullify: "Nullify"
        case .cascade: "Cascade"
        case .deny: "Deny"
        case .unknown(let name): name
        }
    }

    public var description: String { xmlName }
}

extension DeleteRule {
    /// Which rule it is, without an unknown rule's spelling. `RelationshipTraits` stores this:
    /// a value holding no string copies without counting references, and rules copy the traits
    /// of every relationship of the model, several times over.
    public enum Kind: UInt8, Hashable, Sendable {
        case noAction, nullify, cascade, deny, unknown
    }

    public var kind: Kind {
        switch self {
        case .noAction: .noAction
        case .nullify: .nullify
        case .cascade: .cascade
        case .deny: .deny
        case .unknown: .unknown
        }
    }
}
