import DataModel
import Foundation
import SourceConsistency
import SwiftSyntax

/// Walks one parsed file and records its `@Model` classes and any `ModelConfiguration` that
/// names a CloudKit database.
///
/// Only the declarations the `@Model` macro itself reads are looked at: the class's attributes
/// and inheritance clause, and its members (inside `#if` clauses too). Function bodies are
/// entered only to find `ModelConfiguration(…)` calls, which usually sit in the app's entry point.
final class ModelClassCollector: SyntaxVisitor {
    private let locations: SourceLocationTable
    private(set) var declarations = SwiftDataSources()
    /// The types the walk is inside, outermost first.
    private var enclosingTypes: [String] = []

    init(locations: SourceLocationTable) {
        self.locations = locations
        super.init(viewMode: .sourceAccurate)
    }

    // MARK: Enclosing types and versioned schemas

    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
        enter(name: node.name, inheritance: node.inheritanceClause, members: node.memberBlock.members)
        return .visitChildren
    }

    override func visitPost(_ node: EnumDeclSyntax) { enclosingTypes.removeLast() }

    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
        enter(name: node.name, inheritance: node.inheritanceClause, members: node.memberBlock.members)
        return .visitChildren
    }

    override func visitPost(_ node: StructDeclSyntax) { enclosingTypes.removeLast() }

    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
        // `extension SchemaV2 { … }` or `extension App.SchemaV2`: named by its last component.
        // The qualifiers go on the stack too, so a class in `extension Schemas.V3` is enclosed
        // in `Schemas`, `V3`, as one declared in `enum Schemas { enum V3 … }` is.
        let name = TypeReading.storedType(of: node.extendedType).name ?? node.extendedType.trimmedSourceText
        var qualifiers = node.extendedType.trimmedSourceText.split(separator: ".").map {
            $0.trimmingCharacters(in: .whitespaces)
        }.dropLast()
        if qualifiers.contains(where: { $0.isEmpty || $0.contains("<") }) { qualifiers = [] }
        enclosingTypes += qualifiers
        extensionQualifierCounts.append(qualifiers.count)
        enter(name: name, location: locations.location(of: node.extendedType), inheritance: node.inheritanceClause,
              members: node.memberBlock.members)
        return .visitChildren
    }

    override func visitPost(_ node: ExtensionDeclSyntax) {
        enclosingTypes.removeLast(1 + (extensionQualifierCounts.popLast() ?? 0))
    }

    /// How many qualifiers each extension being walked pushed besides its name.
    private var extensionQualifierCounts: [Int] = []

    override func visitPost(_ node: ClassDeclSyntax) { enclosingTypes.removeLast() }

    private func enter(name token: TokenSyntax, inheritance: InheritanceClauseSyntax?, members: MemberBlockItemListSyntax) {
        enter(name: token.identifier?.name ?? token.text, location: locations.location(of: token),
              inheritance: inheritance, members: members)
    }

    /// Pushes the type and records it when it is (or declares what makes) a `VersionedSchema`
    /// or a `SchemaMigrationPlan`.
    private func enter(name: String, location: DataModel.SourceLocation, inheritance: InheritanceClauseSyntax?,
                       members: MemberBlockItemListSyntax) {
        enclosingTypes.append(name)
        var record = SchemaTypeRecord(name: name, location: location)
        record.scope = enclosingTypes
        for inherited in inheritance?.inheritedTypes ?? [] {
            switch TypeReading.storedType(of: inherited.type).name {
            case "VersionedSchema": record.isVersionedSchema = true
            case "SchemaMigrationPlan": record.isMigrationPlan = true
            default: continue
            }
        }
        for member in members {
            guard let variable = member.decl.as(VariableDeclSyntax.self),
                  variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) }),
                  let binding = variable.bindings.first,
                  let memberName = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
            else { continue }
            switch memberName {
            case "versionIdentifier":
                record.versionIdentifier = Self.versionNumbers(in: Syntax(binding))
                record.versionIdentifierLocation = locations.location(of: binding.pattern)
            case "models": record.models = metatypeList(in: Syntax(binding))
            case "schemas": record.schemas = metatypeList(in: Syntax(binding))
            case "stages": record.stages = Self.valueExpression(of: binding).map(stageExpression) ?? .unreadable
            default:
                // `static let migrateV1toV2 = MigrationStage.lightweight(…)`, or an array of stages.
                if let value = Self.valueExpression(of: binding) {
                    let stages = stageExpression(value)
                    if case .unreadable = stages { continue }
                    if case .reference = stages { continue }
                    record.stageProperties[memberName] = stages
                }
            }
        }
        if record.isVersionedSchema || record.isMigrationPlan || record.versionIdentifier != nil
            || record.models != nil || record.schemas != nil || record.stages != nil || !record.stageProperties.isEmpty {
            declarations.schemaTypes.append(record)
        }
    }

    /// `Schema.Version(2, 0, 0)` or `.init(2, 0, 0)` anywhere in the binding → [2, 0, 0].
    private static func versionNumbers(in binding: Syntax) -> [Int]? {
        for call in nodes(FunctionCallExprSyntax.self, in: binding) {
            let numbers = call.arguments.compactMap { Int($0.expression.trimmedSourceText) }
            if !numbers.isEmpty, numbers.count == call.arguments.count { return numbers }
        }
        return nil
    }

    /// The first array literal of `X.self` entries in the binding (its initial value or getter)
    /// → each `X` by path components; nil when there is none.
    private func metatypeList(in binding: Syntax) -> [TypePath]? {
        guard let array = Self.nodes(ArrayExprSyntax.self, in: binding).first else { return nil }
        return array.elements.compactMap { element in metatype(element.expression) }
    }

    /// `X.self` → X's path; nil for anything else.
    private func metatype(_ expression: ExprSyntax) -> TypePath? {
        guard let member = expression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "self",
              let base = member.base
        else { return nil }
        return TypePath(components: base.trimmedSourceText.split(separator: ".").map { $0.trimmingCharacters(in: .whitespaces) },
                         location: locations.location(of: base))
    }

    /// A binding's value: its initial value, or the expression its getter returns (a body of one
    /// expression or one `return`).
    private static func valueExpression(of binding: PatternBindingSyntax) -> ExprSyntax? {
        if let value = binding.initializer?.value { return value }
        let statements: CodeBlockItemListSyntax
        switch binding.accessorBlock?.accessors {
        case .getter(let body)?: statements = body
        case .accessors(let list)?:
            guard let body = list.first(where: { $0.accessorSpecifier.tokenKind == .keyword(.get) })?.body else { return nil }
            statements = body.statements
        case nil: return nil
        }
        guard statements.count == 1, let item = statements.first?.item else { return nil }
        if let expression = item.as(ExprSyntax.self) { return expression }
        if let returned = item.as(ReturnStmtSyntax.self) { return returned.expression }
        return nil
    }

    /// What a stages expression holds, as far as reading it can tell.
    private func stageExpression(_ expression: ExprSyntax) -> StageExpression {
        if let array = expression.as(ArrayExprSyntax.self) {
            return .list(array.elements.map { stageExpression($0.expression) })
        }
        if let sequence = expression.as(SequenceExprSyntax.self) {
            // `a + b`: the operands; any other operator cannot be read.
            var parts: [StageExpression] = []
            for element in sequence.elements {
                if let binary = element.as(BinaryOperatorExprSyntax.self) {
                    guard binary.operator.text == "+" else { return .unreadable }
                    continue
                }
                parts.append(stageExpression(element))
            }
            return .list(parts)
        }
        if let call = expression.as(FunctionCallExprSyntax.self) {
            let called = call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text
            guard called == "lightweight" || called == "custom" else { return .unreadable }
            func argument(_ label: String) -> ExprSyntax? { call.arguments.first { $0.label?.text == label }?.expression }
            func given(_ label: String) -> Bool {
                guard let value = argument(label) else { return false }
                return !value.is(NilLiteralExprSyntax.self)
            }
            return .stage(StageRecord(
                isCustom: called == "custom", from: argument("fromVersion").flatMap(metatype),
                to: argument("toVersion").flatMap(metatype), location: locations.location(of: call),
                hasWillMigrate: given("willMigrate"), hasDidMigrate: given("didMigrate")))
        }
        if let reference = expression.as(DeclReferenceExprSyntax.self) {
            return .reference(reference.baseName.text)
        }
        if let member = expression.as(MemberAccessExprSyntax.self), member.base != nil {
            // `Self.migrateV1toV2`, `Plan.migrateV1toV2`.
            return .reference(member.declName.baseName.text)
        }
        return .unreadable
    }

    /// Every node of `type` in `node`'s subtree (itself included), in source order. Only used on
    /// the few `static` members a versioned schema declares.
    private static func nodes<Node: SyntaxProtocol>(_ type: Node.Type, in node: Syntax) -> [Node] {
        var found: [Node] = []
        if let match = node.as(Node.self) { found.append(match) }
        for child in node.children(viewMode: .sourceAccurate) { found += nodes(type, in: child) }
        return found
    }

    override func visit(_ node: TypeAliasDeclSyntax) -> SyntaxVisitorContinueKind {
        let target = node.initializer.value.trimmedSourceText.split(separator: ".").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        declarations.typeAliases.append(TypeAliasRecord(
            name: node.name.identifier?.name ?? node.name.text, enclosingTypes: enclosingTypes, target: target))
        return .skipChildren
    }

    // MARK: Classes

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        defer { enclosingTypes.append(node.name.identifier?.name ?? node.name.text) }
        guard SwiftAttributes.contains("Model", in: node.attributes)
        else { return .visitChildren }
        var record = ModelClassRecord(
            name: node.name.identifier?.name ?? node.name.text,
            enclosingTypes: enclosingTypes,
            firstInheritedName: node.inheritanceClause?.inheritedTypes.first.flatMap {
                TypeReading.storedType(of: $0.type).name
            },
            location: locations.location(of: node.name),
            disabledRules: disabledRules(of: node, name: node.name, headerEnd: node.memberBlock.leftBrace),
            properties: [], uniques: [], indexes: [], untypedProperties: [])
        collect(node.memberBlock.members, into: &record)
        declarations.classes.append(record)
        return .visitChildren
    }

    private func collect(_ members: MemberBlockItemListSyntax, into record: inout ModelClassRecord) {
        for member in SwiftAttributes.members(in: members) {
            if let variable = member.as(VariableDeclSyntax.self) {
                storedProperties(in: variable, into: &record)
            } else if let macro = member.as(MacroExpansionDeclSyntax.self) {
                let name = macro.macroName.text
                guard name == "Unique" || name == "Index" else { continue }
                let groups = macro.arguments.compactMap { Self.keyPathNames(in: $0.expression) }.filter { !$0.isEmpty }
                let found = KeyPathGroupsMacro(groups: groups, location: locations.location(of: macro))
                if name == "Unique" { record.uniques.append(found) } else { record.indexes.append(found) }
            }
        }
    }

    /// The stored properties the `@Model` macro persists: instance `var`s without a getter,
    /// not marked `@Transient`. (`let` cannot carry the macro's accessors, so the compiler
    /// refuses it in a `@Model` class.)
    private func storedProperties(in variable: VariableDeclSyntax, into record: inout ModelClassRecord) {
        guard variable.bindingSpecifier.tokenKind == .keyword(.var) else { return }
        let isTypeOrLazy = variable.modifiers.contains {
            [.keyword(.static), .keyword(.class), .keyword(.lazy)].contains($0.name.tokenKind)
        }
        guard !isTypeOrLazy else { return }
        var attributeMacro: AttributeMacro?
        var relationshipMacro: RelationshipMacro?
        for attribute in SwiftAttributes.attributes(in: variable.attributes) {
            switch attribute.attributeName.trimmedSourceText {
            case "Transient": return
            case "Attribute": attributeMacro = Self.attributeMacro(attribute.arguments)
            case "Relationship": relationshipMacro = Self.relationshipMacro(attribute.arguments)
            default: continue
            }
        }
        let disabled = variable.bindings.first?.pattern.firstToken(viewMode: .sourceAccurate).flatMap { name in
            disabledRules(of: variable, name: name, headerEnd: nil)
        }
        // In `var a, b: Int` the annotation on `b` applies to `a` too: read right to left.
        var found: [StoredPropertyRecord] = []
        var followingType: StoredType?
        for binding in variable.bindings.reversed() {
            if let accessors = binding.accessorBlock, Self.isComputed(accessors) { followingType = nil; continue }
            let initial = binding.initializer.map { Self.initialValue($0.value) }
            if let annotation = binding.typeAnnotation {
                followingType = TypeReading.storedType(of: annotation.type)
            } else if let initializer = binding.initializer {
                followingType = TypeReading.inferredType(of: initializer.value)
            }
            guard let identifier = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier else { continue }
            let name = identifier.identifier?.name ?? identifier.text
            guard followingType != nil || relationshipMacro != nil else {
                record.untypedProperties.append(name)
                continue
            }
            found.append(StoredPropertyRecord(
                name: name, type: followingType, initialValue: initial, attributeMacro: attributeMacro,
                relationshipMacro: relationshipMacro, disabledRules: disabled,
                location: locations.location(of: identifier)))
        }
        record.properties += found.reversed()
    }

    /// True for a getter (`{ … }` or `get`); `willSet`/`didSet` observe a stored property.
    private static func isComputed(_ block: AccessorBlockSyntax) -> Bool {
        switch block.accessors {
        case .getter: return true
        case .accessors(let list):
            return list.contains { ![.keyword(.willSet), .keyword(.didSet)].contains($0.accessorSpecifier.tokenKind) }
        }
    }

    // MARK: Model configurations

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        let called = node.calledExpression.trimmedSourceText
        if called == "Schema" || called.hasSuffix(".Schema"),
           let argument = node.arguments.first, argument.label?.text == "versionedSchema",
           let schema = metatype(argument.expression) {
            declarations.versionedSchemaUses.append(schema)
        }
        if called == "ModelContainer" || called.hasSuffix(".ModelContainer") {
            let schemaArgument = node.arguments.first { $0.label?.text == "for" }?.expression
            let plan = node.arguments.first { $0.label?.text == "migrationPlan" }?.expression
            declarations.containers.append(ContainerRecord(
                schema: schemaArgument.flatMap(containerSchema), plan: plan.flatMap(metatype),
                location: locations.location(of: node)))
        }
        if called == "ModelConfiguration" || called.hasSuffix(".ModelConfiguration") {
            for argument in node.arguments where argument.label?.text == "cloudKitDatabase" {
                let database = argument.expression.trimmedSourceText
                declarations.cloudKitUses.append(CloudKitUse(database: database, location: locations.location(of: argument)))
            }
        }
        return .visitChildren
    }

    /// `Schema(versionedSchema: X.self)` or `Schema(X.models)` → X; nil for anything else (a
    /// variable, a list of model types).
    private func containerSchema(_ expression: ExprSyntax) -> TypePath? {
        guard let call = expression.as(FunctionCallExprSyntax.self),
              ["Schema", ".init"].contains(where: { call.calledExpression.trimmedSourceText.hasSuffix($0) }),
              let argument = call.arguments.first
        else { return nil }
        if argument.label?.text == "versionedSchema" { return metatype(argument.expression) }
        if argument.label == nil, let member = argument.expression.as(MemberAccessExprSyntax.self),
           member.declName.baseName.text == "models", let base = member.base {
            return TypePath(components: base.trimmedSourceText.split(separator: ".").map(String.init),
                            location: locations.location(of: base))
        }
        return nil
    }

    // MARK: Reading macro arguments

    private static func attributeMacro(_ arguments: AttributeSyntax.Arguments?) -> AttributeMacro {
        var macro = AttributeMacro()
        guard case .argumentList(let list)? = arguments else { return macro }
        for argument in list {
            switch argument.label?.text {
            case "originalName"?: macro.originalName = stringLiteral(argument.expression)
            case "hashModifier"?: macro.hashModifier = stringLiteral(argument.expression)
            case nil:
                let (name, call) = optionName(argument.expression)
                switch name {
                case "unique": macro.isUnique = true
                case "externalStorage": macro.externalStorage = true
                case "ephemeral": macro.isEphemeral = true
                case "allowsCloudEncryption": macro.allowsCloudEncryption = true
                case "preserveValueOnDeletion": macro.preservesValueOnDeletion = true
                case "spotlight": macro.isSpotlight = true
                case "transformable":
                    let by = call?.arguments.first { $0.label?.text == "by" }?.expression
                    macro.transformerName = by.map(transformerName) ?? "?"
                default: break
                }
            default: break
            }
        }
        return macro
    }

    private static func relationshipMacro(_ arguments: AttributeSyntax.Arguments?) -> RelationshipMacro {
        var macro = RelationshipMacro()
        guard case .argumentList(let list)? = arguments else { return macro }
        for argument in list {
            switch argument.label?.text {
            case "deleteRule"?:
                switch optionName(argument.expression).name {
                case "nullify": macro.deleteRule = .nullify
                case "cascade": macro.deleteRule = .cascade
                case "deny": macro.deleteRule = .deny
                case "noAction": macro.deleteRule = .noAction
                case let other: macro.deleteRule = .unknown(other)
                }
            case "minimumModelCount"?: macro.minimumModelCount = Int(argument.expression.trimmedSourceText)
            case "maximumModelCount"?: macro.maximumModelCount = Int(argument.expression.trimmedSourceText)
            case "originalName"?: macro.originalName = stringLiteral(argument.expression)
            case "hashModifier"?: macro.hashModifier = stringLiteral(argument.expression)
            case "inverse"?:
                if let keyPath = argument.expression.as(KeyPathExprSyntax.self) {
                    // `\Item.tags`, or fully qualified, `\Schemas.V3.Item.tags`: swift-syntax cannot tell
                    // types from properties in a key path, so it reads `Schemas` as the root and
                    // `V3`, `Item`, `tags` as components. The property is the last component; the
                    // type, the one before it when it is a type's name (capitalised), else the root.
                    let names = keyPath.components.compactMap {
                        $0.component.as(KeyPathPropertyComponentSyntax.self)?.declName.baseName.text
                    }
                    let qualifier = names.dropLast().last.flatMap { $0.first?.isUppercase == true ? $0 : nil }
                    macro.inverseTypeName = qualifier ?? keyPath.root.flatMap { TypeReading.storedType(of: $0).name }
                    macro.inverseProperty = names.last
                }
            case nil:
                if optionName(argument.expression).name == "unique" { macro.isUnique = true }
            default: break
            }
        }
        return macro
    }

    /// `.unique` → "unique"; `.transformable(by: X.self)` → ("transformable", the call).
    private static func optionName(_ expression: ExprSyntax) -> (name: String, call: FunctionCallExprSyntax?) {
        if let call = expression.as(FunctionCallExprSyntax.self) {
            return (optionName(call.calledExpression).name, call)
        }
        if let member = expression.as(MemberAccessExprSyntax.self) {
            return (member.declName.baseName.text, nil)
        }
        return (expression.trimmedSourceText, nil)
    }

    /// `Name.self` → "Name"; `"name"` → "name"; anything else as written.
    private static func transformerName(_ expression: ExprSyntax) -> String {
        if let literal = stringLiteral(expression) { return literal }
        if let member = expression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "self",
           let base = member.base {
            return base.trimmedSourceText
        }
        return expression.trimmedSourceText
    }

    static func stringLiteral(_ expression: ExprSyntax) -> String? {
        guard let literal = expression.as(StringLiteralExprSyntax.self) else { return nil }
        var text = ""
        for segment in literal.segments {
            guard let plain = segment.as(StringSegmentSyntax.self) else { return nil }
            text += plain.content.text
        }
        return text
    }

    /// `[\.a, \.b]` or `[\Model.a]` → ["a", "b"].
    private static func keyPathNames(in expression: ExprSyntax) -> [String]? {
        guard let array = expression.as(ArrayExprSyntax.self) else { return nil }
        return array.elements.compactMap { element in
            element.expression.as(KeyPathExprSyntax.self)?.components.first?.component
                .as(KeyPathPropertyComponentSyntax.self)?.declName.baseName.text
        }
    }

    /// The initial value, with number literals converted to the decimal value they denote
    /// (`0o77` → 63); a literal that cannot be converted is kept as code, which no rule checks.
    private static func initialValue(_ expression: ExprSyntax) -> InitialValue {
        if let text = stringLiteral(expression) { return .string(text) }
        if let number = numberValue(expression, isNegative: false) { return number }
        if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-",
           let number = numberValue(prefix.expression, isNegative: true) {
            return number
        }
        if let boolean = expression.as(BooleanLiteralExprSyntax.self) {
            return .boolean(boolean.literal.tokenKind == .keyword(.true))
        }
        if expression.is(NilLiteralExprSyntax.self) { return .nil }
        return .expression(expression.trimmedSourceText)
    }

    private static func numberValue(_ expression: ExprSyntax, isNegative: Bool) -> InitialValue? {
        if let integer = expression.as(IntegerLiteralExprSyntax.self) {
            return SwiftNumberLiteral.integerValue(integer.literal.text, isNegative: isNegative).map(InitialValue.integer)
        }
        if let float = expression.as(FloatLiteralExprSyntax.self) {
            return SwiftNumberLiteral.floatValue(float.literal.text, isNegative: isNegative).map(InitialValue.float)
        }
        return nil
    }

    // MARK: Suppressions

    /// The rule ids a declaration's `momlint:disable` comments silence (see `suppressionTrivia`).
    private func disabledRules(of declaration: some SyntaxProtocol, name: TokenSyntax, headerEnd: TokenSyntax?) -> String? {
        // Most declarations have no such comment, and when their text does not hold the marker,
        // none of their comments can: that is one scan of the file's bytes, where collecting the
        // trivia asks swift-syntax to lex each token's trivia again into pieces.
        guard Self.contains(Self.disableMarker, in: locations.text(of: declaration)) else { return nil }
        return Self.disabledRules(in: Self.suppressionTrivia(of: declaration, name: name, headerEnd: headerEnd))
    }

    private static let disableMarker = Array("momlint:disable".utf8)

    /// A plain byte search: Foundation's `String.contains` took longer than the trivia it spares.
    private static func contains(_ marker: [UInt8], in text: ArraySlice<UInt8>) -> Bool {
        guard let first = marker.first, text.count >= marker.count else { return false }
        for start in text.startIndex...(text.endIndex - marker.count) where text[start] == first {
            if text[start..<start + marker.count].elementsEqual(marker) { return true }
        }
        return false
    }

    /// The trivia whose comments may carry a declaration's `momlint:disable`: everything before
    /// its name (the comments above it, and those between its attributes, modifiers and keyword,
    /// whichever attribute they follow), then, for a class, the rest of its header up to the `{`
    /// of its members, and for a property, the rest of the line its name is on (a comment at the
    /// end of `var items: [Item] = []`). Comments inside a class's members or on a property's
    /// later lines (an initializer or accessors over several lines) belong to that code.
    static func suppressionTrivia(of declaration: some SyntaxProtocol, name: TokenSyntax,
                                  headerEnd: TokenSyntax?) -> [TriviaPiece] {
        var pieces: [TriviaPiece] = []
        var isPastName = false
        for token in declaration.tokens(viewMode: .sourceAccurate) {
            if isPastName {
                if let headerEnd {
                    guard token.position <= headerEnd.position else { break }
                } else if token.leadingTrivia.contains(where: \.isNewline) {
                    break
                }
            }
            pieces += token.leadingTrivia.pieces
            pieces += token.trailingTrivia.pieces
            if token.position >= name.position { isPastName = true }
        }
        return pieces
    }

    /// The rule ids after `momlint:disable` in a comment of `trivia`, e.g.
    /// `// momlint:disable missing_inverse, reserved_name`.
    static func disabledRules(in trivia: [TriviaPiece]) -> String? {
        var found: [String] = []
        for piece in trivia {
            let text: String
            switch piece {
            case .lineComment(let comment), .docLineComment(let comment): text = comment
            case .blockComment(let comment), .docBlockComment(let comment): text = comment
            default: continue
            }
            guard let range = text.range(of: "momlint:disable") else { continue }
            var rest = text[range.upperBound...]
            if rest.hasSuffix("*/") { rest = rest.dropLast(2) }
            found.append(String(rest).trimmingCharacters(in: .whitespaces))
        }
        return found.isEmpty ? nil : found.joined(separator: ",")
    }
}
