/// Every rule momlint has. Ids are fixed once published.
public enum RuleCatalogue {
    public static let all: [any Rule.Type] = [
        MissingInverseRule.self,
    ]

    public static func rule(id: String) -> (any Rule.Type)? {
        all.first { $0.description.id == id }
    }
}
