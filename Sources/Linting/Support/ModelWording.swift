import DataModel

/// Names of model settings in the terms of the model's author: the `contents` XML's for a
/// model from Xcode's editor, SwiftData's for a model read from `@Model` classes. Rules build
/// their messages from these so that one rule reads right for both.
struct ModelWording {
    /// The `xmlAttributes` key under which the SwiftData reader keeps a property's Swift type as
    /// written (`Int16`, `[String]?`).
    static let swiftTypeKey = "swiftType"

    let origin: ModelOrigin

    init(_ model: Model) {
        origin = model.origin
    }

    var isSwiftData: Bool { origin == .swiftData }

    /// The attribute's type: `Integer 16` in a `contents` file, `Int16` in Swift.
    func typeName(of attribute: Attribute) -> String {
        if isSwiftData, let swift = attribute.xmlAttributes[Self.swiftTypeKey] {
            return swift.hasSuffix("?") ? String(swift.dropLast()) : swift
        }
        return attribute.attributeType?.xmlName ?? "attribute's"
    }

    /// The type external storage needs.
    var binaryTypeName: String { isSwiftData ? "Data" : "Binary" }

    /// How the external-storage setting is named.
    var externalStorageName: String { isSwiftData ? "@Attribute(.externalStorage)" : "allowsExternalBinaryDataStorage" }

    /// `minCount`/`maxCount`, or SwiftData's `minimumModelCount`/`maximumModelCount`.
    var minimumCountName: String { isSwiftData ? "minimumModelCount" : "minCount" }
    var maximumCountName: String { isSwiftData ? "maximumModelCount" : "maxCount" }

    /// A delete rule: `Nullify` as Xcode's model editor shows it, `.nullify` as
    /// `@Relationship(deleteRule:)` takes it.
    func deleteRule(_ rule: DeleteRule) -> String {
        guard isSwiftData else { return rule.xmlName }
        return switch rule {
        case .noAction: ".noAction"
        case .nullify: ".nullify"
        case .cascade: ".cascade"
        case .deny: ".deny"
        case .unknown(let name): name
        }
    }

    /// The fix that changes a relationship's delete rule, e.g. "set the delete rule of
    /// 'Folder.documents' to Nullify", or "set deleteRule: .nullify on 'Folder.documents'".
    func settingDeleteRule(of qualifiedName: String, to rule: DeleteRule) -> String {
        isSwiftData ? "set deleteRule: \(deleteRule(rule)) on '\(qualifiedName)'"
            : "set the delete rule of '\(qualifiedName)' to \(deleteRule(rule))"
    }

    /// What an entity is to its author: an entity of the model, or a `@Model` class.
    var entityNoun: String { isSwiftData ? "model class" : "entity" }
    var entitiesNoun: String { isSwiftData ? "models" : "entities" }

    /// Where an entity is looked for, in "which is not an entity of this model".
    var entityOfThisModel: String { isSwiftData ? "a @Model class of these sources" : "an entity of this model" }
}
