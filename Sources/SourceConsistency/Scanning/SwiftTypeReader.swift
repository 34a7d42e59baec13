// swift-syntax is absent from the pre-commit hook's build (MOMLINT_HOOK_BUILD; Package.swift).
#if !MOMLINT_HOOK_BUILD
import SwiftSyntax

/// Reduces a type as written to a `SwiftTypeReference`.
enum SwiftTypeReader {
    static func reference(for type: TypeSyntax) -> SwiftTypeReference {
        let (inner, optionality) = SwiftAttributes.unwrapped(type)
        // `Foundation.Date`: the module (or enclosing type) is dropped.
        let baseName = if let identifier = inner.as(IdentifierTypeSyntax.self) {
            identifier.name.identifier?.name ?? identifier.name.text
        } else if let member = inner.as(MemberTypeSyntax.self) {
            member.name.identifier?.name ?? member.name.text
        } else if inner.is(ArrayTypeSyntax.self) {
            "Array"
        } else if inner.is(DictionaryTypeSyntax.self) {
            "Dictionary"
        } else {
            inner.trimmedSourceText
        }
        return SwiftTypeReference(spelling: type.trimmedSourceText, baseName: baseName, optionality: optionality)
    }
}
#endif
