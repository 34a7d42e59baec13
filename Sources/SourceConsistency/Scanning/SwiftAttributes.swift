// swift-syntax is absent from the pre-commit hook's build (MOMLINT_HOOK_BUILD; Package.swift).
#if !MOMLINT_HOOK_BUILD
import SwiftSyntax

/// Reading a declaration's attributes, a type's members and the optionality of a type, shared
/// by the NSManagedObject scan (`DeclarationCollector`) and the SwiftData reader (`SwiftDataModel`).
public enum SwiftAttributes {
    /// The attributes of a declaration, those inside `#if` … `#endif` clauses too: code shared
    /// with platforms without SwiftData or Core Data wraps `@Model`, `@Relationship` or
    /// `@NSManaged` so.
    public static func attributes(in list: AttributeListSyntax) -> [AttributeSyntax] {
        var found: [AttributeSyntax] = []
        for element in list {
            switch element {
            case .attribute(let attribute):
                found.append(attribute)
            case .ifConfigDecl(let conditional):
                for clause in conditional.clauses {
                    if case .attributes(let nested)? = clause.elements { found += attributes(in: nested) }
                }
            }
        }
        return found
    }

    /// The declarations of a member block, those inside `#if` … `#endif` clauses too (every
    /// clause, as for attributes), in source order.
    public static func members(in list: MemberBlockItemListSyntax) -> [DeclSyntax] {
        var found: [DeclSyntax] = []
        for member in list {
            guard let conditional = member.decl.as(IfConfigDeclSyntax.self) else {
                found.append(member.decl)
                continue
            }
            for clause in conditional.clauses {
                if case .decls(let nested)? = clause.elements { found += members(in: nested) }
            }
        }
        return found
    }

    /// True when the list holds `@name` (e.g. `NSManaged`, `Model`), in an `#if` clause or not.
    public static func contains(_ name: String, in list: AttributeListSyntax) -> Bool {
        attributes(in: list).contains { $0.attributeName.trimmedSourceText == name }
    }

    /// The type inside every optional layer (`T?`, `T!`, `Optional<T>`,
    /// `ImplicitlyUnwrappedOptional<T>`) and type attribute (`@Sendable`), with the outermost
    /// layer's optionality.
    public static func unwrapped(_ type: TypeSyntax) -> (type: TypeSyntax, optionality: SwiftTypeReference.Optionality) {
        if let optional = type.as(OptionalTypeSyntax.self) {
            return (unwrapped(optional.wrappedType).type, .optional)
        }
        if let implicit = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
            return (unwrapped(implicit.wrappedType).type, .implicitlyUnwrapped)
        }
        if let attributed = type.as(AttributedTypeSyntax.self) {
            return unwrapped(attributed.baseType)
        }
        let named: (TokenSyntax, GenericArgumentClauseSyntax?)? =
            type.as(IdentifierTypeSyntax.self).map { ($0.name, $0.genericArgumentClause) }
            ?? type.as(MemberTypeSyntax.self).map { ($0.name, $0.genericArgumentClause) }
        if let (name, generics) = named, let generics, generics.arguments.count == 1,
           case .type(let wrapped) = generics.arguments.first!.argument {
            switch name.identifier?.name ?? name.text {
            case "Optional": return (unwrapped(wrapped).type, .optional)
            case "ImplicitlyUnwrappedOptional": return (unwrapped(wrapped).type, .implicitlyUnwrapped)
            default: break
            }
        }
        return (type, .nonOptional)
    }
}
#endif
