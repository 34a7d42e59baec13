import SourceConsistency
import SwiftSyntax

/// Reduces Swift types, as written or as an initial value implies them, to `StoredType`.
enum TypeReading {
    static func storedType(of written: TypeSyntax) -> StoredType {
        let (type, optionality) = SwiftAttributes.unwrapped(written)
        if optionality != .nonOptional {
            var wrapped = storedType(of: type)
            wrapped.isOptional = true
            wrapped.spelling = written.trimmedSourceText
            return wrapped
        }
        // Type attributes (`@Sendable`) are not part of the spelling kept.
        let spelling = type.trimmedSourceText
        if let array = type.as(ArrayTypeSyntax.self) {
            return StoredType(shape: .array(element: storedType(of: array.element)), isOptional: false, spelling: spelling)
        }
        if type.is(DictionaryTypeSyntax.self) {
            return StoredType(shape: .collection, isOptional: false, spelling: spelling)
        }
        let (nameToken, generics): (TokenSyntax?, GenericArgumentClauseSyntax?)
        if let identifier = type.as(IdentifierTypeSyntax.self) {
            (nameToken, generics) = (identifier.name, identifier.genericArgumentClause)
        } else if let member = type.as(MemberTypeSyntax.self) {
            // `Foundation.Date`: the module (or enclosing type) is dropped.
            (nameToken, generics) = (member.name, member.genericArgumentClause)
        } else {
            return StoredType(shape: .named(spelling), isOptional: false, spelling: spelling)
        }
        let name = nameToken.map { $0.identifier?.name ?? $0.text } ?? spelling
        if let generics {
            let arguments = generics.arguments.compactMap { argument -> TypeSyntax? in
                if case .type(let type) = argument.argument { return type }
                return nil
            }
            if name == "Array", arguments.count == 1 {
                return StoredType(shape: .array(element: storedType(of: arguments[0])), isOptional: false, spelling: spelling)
            }
            return StoredType(shape: .collection, isOptional: false, spelling: spelling)
        }
        return StoredType(shape: .named(name), isOptional: false, spelling: spelling)
    }

    /// The type an initial value gives a property declared without an annotation, as the
    /// compiler infers it: literals, and `Name()`/`Name(…)`/`Name.member` for a type name
    /// starting with an uppercase letter. Nil when it cannot be told from the syntax.
    static func inferredType(of expression: ExprSyntax) -> StoredType? {
        func named(_ name: String) -> StoredType { StoredType(shape: .named(name), isOptional: false, spelling: name) }
        if expression.is(StringLiteralExprSyntax.self) { return named("String") }
        if expression.is(IntegerLiteralExprSyntax.self) { return named("Int") }
        if expression.is(FloatLiteralExprSyntax.self) { return named("Double") }
        if expression.is(BooleanLiteralExprSyntax.self) { return named("Bool") }
        if let prefix = expression.as(PrefixOperatorExprSyntax.self) { return inferredType(of: prefix.expression) }
        if let call = expression.as(FunctionCallExprSyntax.self) {
            return typeName(call.calledExpression).map(named)
        }
        if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base {
            // `Date.now`, `UUID.init()`; but not `value.count`.
            return typeName(base).map(named)
        }
        return nil
    }

    private static func typeName(_ expression: ExprSyntax) -> String? {
        if let reference = expression.as(DeclReferenceExprSyntax.self) {
            let name = reference.baseName.text
            return name.first?.isUppercase == true ? name : nil
        }
        if let member = expression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "init",
           let base = member.base {
            return typeName(base)
        }
        return nil
    }
}
