// swift-syntax is absent from the pre-commit hook's build (MOMLINT_HOOK_BUILD; Package.swift).
#if !MOMLINT_HOOK_BUILD
import SwiftSyntax

/// Reduces a type as written to a `SwiftTypeReference`.
enum SwiftTypeReader {
    static func reference(for type: TypeSyntax) -> SwiftTypeReference {
        let (baseName, optionality) = reduce(type)
        return SwiftTypeReference(spelling: type.trimmedDescription, baseName: baseName, optionality: optionality)
    }

    private static func reduce(_ type: TypeSyntax) -> (String, SwiftTypeReference.Optionality) {
        if let optional = type.as(OptionalTypeSyntax.self) {
            return (reduce(optional.wrappedType).0, .optional)
        }
        if let unwrapped = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
            return (reduce(unwrapped.wrappedType).0, .implicitlyUnwrapped)
        }
        if let attributed = type.as(AttributedTypeSyntax.self) {
            return reduce(attributed.baseType)
        }
        if let identifier = type.as(IdentifierTypeSyntax.self) {
            return named(identifier.name, arguments: identifier.genericArgumentClause)
        }
        // `Foundation.Date`, `Swift.Optional<Int16>`: the module (or enclosing type) is dropped.
        if let member = type.as(MemberTypeSyntax.self) {
            return named(member.name, arguments: member.genericArgumentClause)
        }
        if type.is(ArrayTypeSyntax.self) { return ("Array", .nonOptional) }
        if type.is(DictionaryTypeSyntax.self) { return ("Dictionary", .nonOptional) }
        return (type.trimmedDescription, .nonOptional)
    }

    private static func named(_ name: TokenSyntax, arguments: GenericArgumentClauseSyntax?)
        -> (String, SwiftTypeReference.Optionality)
    {
        let text = name.identifier?.name ?? name.text
        if text == "Optional" || text == "ImplicitlyUnwrappedOptional",
           let only = arguments?.arguments.first, arguments?.arguments.count == 1,
           case .type(let wrapped) = only.argument
        {
            return (reduce(wrapped).0, text == "Optional" ? .optional : .implicitlyUnwrapped)
        }
        return (text, .nonOptional)
    }
}
#endif
