/// Every source rule momlint has. Ids are fixed once published, and unique across model
/// and source rules alike.
public enum SourceRuleCatalogue {
    public static let all: [any SourceRule.Type] = [
        UnsignedManagedPropertyRule.self,
        ScalarTypeMismatchRule.self,
        ManagedPropertyNotInModelRule.self,
        ModelPropertyNotInClassRule.self,
        OptionalityMismatchRule.self,
    ]

    public static func rule(id: String) -> (any SourceRule.Type)? {
        all.first { $0.description.id == id }
    }
}
