// swift-syntax is absent from the pre-commit hook's build (MOMLINT_HOOK_BUILD; Package.swift).
#if !MOMLINT_HOOK_BUILD
import SwiftSyntax

/// Reduces a type as written to a `SwiftTypeReference`.
enum SwiftTypeReader {
    static func reference(for type: TypeSyntax) -> SwiftTypeReference {
        let (baseName, optionality) = reduce(type)
        return SwiftTypeReference(spelling: type.trimmedSourceText, baseName: baseName, optionality: optionality)
    }

    private static func reduce(_ type: TypeSyntax) -> (String, SwiftTypeReference.Optionality) {
        let (inner, optionality) = SwiftAttributes.unwrapped(type)
        // `Foundation.Date`: the module (or enclosing type) is dropped.
        if let identifier = inner.as(IdentifierTypeSyntax.self) {
            return (identifier.name.identifier?.name ?? identifier.name.text, optionality)
        }
        if let member = inner.as(MemberTypeSyntax.self) {
            return (member.name.identifier?.name ?? member.name.text, optionality)
        }
        if inner.is(ArrayTypeSyntax.self) { return ("Array", optionality) }
        if inner.is(DictionaryTypeSyntax.self) { return ("Dictionary", optionality) }
        return (inner.trimmedSourceText, optionality)
    }
}
#endif
