import DataModel
#if !MOMLINT_HOOK_BUILD
import SwiftSyntax
#endif

/// What one Swift file declares that matters here: classes, extensions holding instance
/// properties, and top-level type aliases. Nothing is resolved across files yet.
struct FileDeclarations: Sendable {
    struct ClassRecord: Sendable {
        var name: String
        var qualifiedName: String
        var objectiveCName: String?
        var superclassName: String?
        var location: DataModel.SourceLocation
        var properties: [ManagedProperty]
        /// False when the declaration holds a syntax error, so members may have been lost.
        var isComplete: Bool
    }

    struct ExtensionRecord: Sendable {
        /// The extended type as written, without spaces, e.g. `MyApp.Item`.
        var extendedTypeName: String
        var properties: [ManagedProperty]
        var isComplete: Bool
    }

    var classes: [ClassRecord] = []
    var extensions: [ExtensionRecord] = []
    /// `typealias Name = Type` at file scope, so `@NSManaged var id: Identifier` is judged
    /// as the type it stands for.
    var typeAliases: [String: SwiftTypeReference] = [:]
}

#if !MOMLINT_HOOK_BUILD
/// Walks one parsed file and records its classes, extensions and type aliases.
///
/// Function bodies, closures and accessors are not entered: a class declared there cannot
/// be named by a model, and skipping them keeps large files cheap.
final class DeclarationCollector: SyntaxVisitor {
    private let locations: SourceLocationTable
    private(set) var declarations = FileDeclarations()
    /// Names of the types enclosing the current node, outermost first.
    private var enclosingTypeNames: [String] = []

    init(locations: SourceLocationTable) {
        self.locations = locations
        super.init(viewMode: .sourceAccurate)
    }

    // MARK: Classes and extensions

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        let name = node.name.identifier?.name ?? node.name.text
        let qualifiedName = (enclosingTypeNames + [name]).joined(separator: ".")
        let superclass = node.inheritanceClause?.inheritedTypes.first.map {
            SwiftTypeReader.reference(for: $0.type).baseName
        }
        declarations.classes.append(FileDeclarations.ClassRecord(
            name: name, qualifiedName: qualifiedName,
            objectiveCName: Self.objectiveCName(in: node.attributes),
            superclassName: superclass,
            location: locations.location(of: node),
            properties: properties(in: node.memberBlock, ownerName: name),
            isComplete: !node.hasError))
        enclosingTypeNames.append(name)
        return .visitChildren
    }

    override func visitPost(_ node: ClassDeclSyntax) { enclosingTypeNames.removeLast() }

    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
        let extendedName = node.extendedType.trimmedSourceText.filter { !$0.isWhitespace }
        let ownerName = SwiftTypeReader.reference(for: node.extendedType).baseName
        let properties = properties(in: node.memberBlock, ownerName: ownerName)
        if !properties.isEmpty || node.hasError {
            declarations.extensions.append(FileDeclarations.ExtensionRecord(
                extendedTypeName: extendedName, properties: properties, isComplete: !node.hasError))
        }
        enclosingTypeNames.append(extendedName)
        return .visitChildren
    }

    override func visitPost(_ node: ExtensionDeclSyntax) { enclosingTypeNames.removeLast() }

    // Other types only contribute to the qualified names of classes nested in them.
    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind { enter(node.name) }
    override func visitPost(_ node: StructDeclSyntax) { enclosingTypeNames.removeLast() }
    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind { enter(node.name) }
    override func visitPost(_ node: EnumDeclSyntax) { enclosingTypeNames.removeLast() }
    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind { enter(node.name) }
    override func visitPost(_ node: ActorDeclSyntax) { enclosingTypeNames.removeLast() }

    private func enter(_ name: TokenSyntax) -> SyntaxVisitorContinueKind {
        enclosingTypeNames.append(name.identifier?.name ?? name.text)
        return .visitChildren
    }

    override func visit(_ node: TypeAliasDeclSyntax) -> SyntaxVisitorContinueKind {
        if enclosingTypeNames.isEmpty {
            declarations.typeAliases[node.name.identifier?.name ?? node.name.text] =
                SwiftTypeReader.reference(for: node.initializer.value)
        }
        return .skipChildren
    }

    // Bodies hold no declarations a model can name.
    override func visit(_ node: CodeBlockSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: AccessorBlockSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

    // MARK: Properties

    /// Instance properties in a member block, including those inside `#if` clauses.
    private func properties(in memberBlock: MemberBlockSyntax, ownerName: String) -> [ManagedProperty] {
        SwiftAttributes.members(in: memberBlock.members).flatMap { member in
            member.as(VariableDeclSyntax.self).map { properties(in: $0, ownerName: ownerName) } ?? []
        }
    }

    private func properties(in variable: VariableDeclSyntax, ownerName: String) -> [ManagedProperty] {
        let isTypeProperty = variable.modifiers.contains {
            $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class)
        }
        guard !isTypeProperty else { return [] }
        let isManaged = SwiftAttributes.contains("NSManaged", in: variable.attributes)
        let key = Self.objectiveCName(in: variable.attributes)
        let location = locations.location(of: variable)
        let isWellFormed = !variable.hasError

        // In `var a, b: Int16` the annotation on `b` applies to `a` too: read right to left.
        var result: [ManagedProperty] = []
        var followingType: SwiftTypeReference?
        for binding in variable.bindings.reversed() {
            if let annotation = binding.typeAnnotation {
                followingType = SwiftTypeReader.reference(for: annotation.type)
            } else if binding.initializer != nil || binding.accessorBlock != nil {
                followingType = nil
            }
            guard let identifier = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier else { continue }
            let name = identifier.identifier?.name ?? identifier.text
            // `@objc(key)` names a single property; with several bindings it cannot apply.
            result.append(ManagedProperty(
                name: name, key: variable.bindings.count == 1 ? key ?? name : name, ownerName: ownerName,
                isManaged: isManaged, type: followingType, isWellFormed: isWellFormed, location: location))
        }
        return result.reversed()
    }

    // MARK: Attributes

    /// The name in `@objc(Name)` (or `@objc(set:with:)` for a selector), if present.
    static func objectiveCName(in attributes: AttributeListSyntax) -> String? {
        for element in attributes {
            guard case .attribute(let attribute) = element, attribute.attributeName.trimmedSourceText == "objc",
                  case .objCName(let pieces)? = attribute.arguments else { continue }
            let name = pieces.map { ($0.name?.text ?? "") + ($0.colon == nil ? "" : ":") }.joined()
            if !name.isEmpty { return name }
        }
        return nil
    }
}
#endif
