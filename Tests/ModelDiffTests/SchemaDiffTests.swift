import DataModel
import Foundation
@testable import ModelDiff
import Testing
import MomlintTestSupport

/// Each classification, on the two-version fixtures in `Fixtures/Models/Migrations/`.
@Suite struct SchemaDiffTests {
    /// The previous → current diff of a fixture bundle.
    func diff(_ name: String, bundle bundleName: String = "Model.xcdatamodeld") throws -> SchemaDiff {
        let folder = Fixtures.path("Fixtures/Models/Migrations/\(name)")
        let loaded = ModelLoader(loadsAllVersions: true).load(paths: [folder + "/" + bundleName])
        #expect(loaded.failures.isEmpty)
        let bundle = try #require(BundleVersions.group(loaded.models).first)
        let previous = try #require(bundle.previous)
        let mappings = MappingModels(searching: [folder])
        return SchemaDiff(from: previous, to: bundle.current,
                          hasMappingModel: mappings.covers(from: previous.version.name, to: bundle.current.version.name,
                                                           inBundle: bundleName))
    }

    func only(_ diff: SchemaDiff) throws -> SchemaChange {
        #expect(diff.changes.count == 1, "\(diff.changes.map(\.details))")
        return try #require(diff.changes.first)
    }

    @Test func addingAnOptionalAttributeIsLightweight() throws {
        let diff = try diff("AddOptionalAttribute")
        let change = try only(diff)
        #expect(change.kind == .added && change.element == .attribute && change.propertyName == "pinned")
        #expect(change.hashChanging && change.lightweight && !change.dataLoss)
        #expect(diff.verdict == .lightweight)
    }

    /// Core Data infers the mapping (an added attribute is a documented pattern); the migration
    /// fails (134110) on any stored row, which has no value for it. Not 134140.
    @Test func aRequiredAttributeAddedWithoutDefaultIsInferredButFailsOnEveryRow() throws {
        let diff = try diff("AddRequiredWithoutDefault")
        let change = try only(diff)
        #expect(change.kind == .added && change.propertyName == "createdAt")
        #expect(change.hashChanging && change.lightweight)
        #expect(change.failsWhen == .everyRow && change.needsDefaultValue)
        #expect(diff.verdict == .lightweight && diff.mayFail)
        #expect(DiffRendering.summary(diff) == "lightweight migration (1 change), fails (134110) for stored rows without a value for a required attribute")
        #expect(!DiffRendering.text(diff).contains("134140"))
    }

    /// Optional → required without a default: only rows that hold nil make the migration fail.
    @Test func anOptionalAttributeMadeRequiredWithoutDefaultFailsForRowsWithoutAValue() throws {
        let diff = try diff("RequiredWithoutDefault")
        let change = try only(diff)
        #expect(change.aspect == .isOptional && change.oldValue == "optional" && change.newValue == "required")
        #expect(change.hashChanging && change.lightweight && !change.dataLoss)
        #expect(change.failsWhen == .rowsWithoutValue)
        #expect(diff.verdict == .lightweight && diff.mayFail)
        #expect(DiffRendering.text(diff).contains("[hash changes, lightweight, FAILS (134110) for rows without a value]"))
    }

    @Test func optionalBecomingRequiredWithADefaultIsLightweight() throws {
        let diff = try diff("RequiredWithDefault")
        let aspects = diff.changes.map(\.aspect)
        #expect(aspects == [.isOptional, .defaultValue])
        #expect(diff.changes.allSatisfy { $0.lightweight })
        #expect(diff.verdict == .lightweight)
    }

    @Test func removingAPersistentAttributeLosesDataButATransientOneDoesNot() throws {
        let diff = try diff("RemoveAttribute")
        let removed = diff.changes.filter { $0.kind == .removed }
        #expect(removed.map(\.propertyName) == ["body", "cache"])
        #expect(removed.map(\.dataLoss) == [true, false])
        #expect(diff.changes.contains { $0.kind == .added && $0.propertyName == "text" })
        #expect(diff.verdict == .lightweight && diff.losesData)
    }

    @Test func renamingIdentifiersKeepTheData() throws {
        let diff = try diff("RenameWithIdentifier")
        let renames = diff.changes.filter { $0.kind == .renamed }
        #expect(renames.map(\.oldName) == ["Car", "color"])
        #expect(renames.map(\.element) == [.entity, .attribute])
        // The class name changed too: not a version hash input.
        #expect(diff.changes.filter { $0.kind != .renamed }.map(\.aspect) == [.representedClassName])
        #expect(!diff.losesData && diff.verdict == .lightweight)
    }

    @Test func anAttributeTypeChangeIsNotInferable() throws {
        let diff = try diff("AttributeTypeChange")
        let type = try #require(diff.changes.first { $0.aspect == .attributeType })
        #expect(type.oldValue == "String" && type.newValue == "Integer 16")
        #expect(type.hashChanging && !type.lightweight)
        #expect(diff.verdict == .notInferable)
    }

    /// Observed (WooCommerce `Model 87 → Model 88`, `OrderGiftCard.amount` Integer 64 → Double,
    /// no mapping model; its migration test reads a stored 1 back as 1.0): lightweight, nothing lost.
    @Test func anInteger64BecomingDoubleIsInferredAndLosesNothing() throws {
        let diff = try diff("NumericTypeChange")
        let change = try only(diff)
        #expect(change.aspect == .attributeType && change.oldValue == "Integer 64" && change.newValue == "Double")
        #expect(change.hashChanging && change.lightweight && !change.dataLoss)
        #expect(change.sources.contains(.observedMigrations))
        #expect(diff.verdict == .lightweight && !diff.dependsOnMappingModel)
    }

    /// Narrowing changes are inferred too, but lose what the new type cannot hold: a warning's
    /// worth (data loss), never 134140.
    @Test func aNarrowingNumericChangeIsInferredAndTruncates() throws {
        let diff = try diff("NarrowingTypeChange")
        let changes = diff.changes.filter { $0.aspect == .attributeType }
        #expect(changes.map(\.propertyName) == ["amount", "quantity"])
        #expect(changes.allSatisfy { $0.lightweight && $0.dataLoss && $0.sources.contains(.inferred) })
        #expect(changes[0].details == "'OrderGiftCard.amount' type 'Double' → 'Integer 32': stored values lose their fractions (truncated)")
        #expect(changes[1].details == "'OrderItem.quantity' type 'Integer 64' → 'Integer 16': stored values the new type cannot hold are truncated")
        #expect(diff.verdict == .lightweight)
    }

    @Test(arguments: [
        ("Integer 16", "Integer 64", true, false), ("Integer 64", "Double", true, false),
        ("Integer 32", "Float", true, true), ("Float", "Double", true, false), ("Double", "Float", true, true),
        ("Double", "Integer 64", true, true), ("Integer 64", "Integer 32", true, true),
        ("Integer 64", "Decimal", false, false), ("Decimal", "Double", false, false), ("Integer 32", "String", false, false),
        ("Integer 16", "Boolean", false, false), ("Date", "Double", false, false),
    ])
    func numericTypeChanges(from old: String, to new: String, inferable: Bool, narrows: Bool) {
        let change = NumericTypeChange(from: AttributeType(xmlName: old), to: AttributeType(xmlName: new))
        #expect((change != nil) == inferable)
        #expect((change?.narrows ?? false) == narrows)
    }

    @Test func aMappingModelForThePairCoversWhatCannotBeInferred() throws {
        #expect(try diff("TypeChangeWithMappingModel", bundle: "Typed.xcdatamodeld").verdict == .mappingModel)
        // The mapping model names another bundle: it does not cover this one's versions.
        let elsewhere = MappingModels(searching: [Fixtures.path("Fixtures/Models/Migrations/TypeChangeWithMappingModel")])
        #expect(!elsewhere.covers(from: "Model", to: "Model 2", inBundle: "Model.xcdatamodeld"))
    }

    /// `failure`, the one answer to "does this migration fail?" that `versions`, `lint`'s
    /// stepwise hint and `store check` give: 134140 when the inferred mapping cannot make the
    /// pair and no mapping model does; 134110 when stored rows may lack a required value and no
    /// mapping model gives one; else none — a mapping model takes over both.
    @Test(arguments: [
        ("DefaultValueOnly", "Model.xcdatamodeld", false, nil),
        ("AddOptionalAttribute", "Model.xcdatamodeld", false, nil),
        ("AddRequiredWithoutDefault", "Model.xcdatamodeld", false, SchemaDiff.Failure.missingRequiredValue),
        ("RequiredWithoutDefault", "Model.xcdatamodeld", false, .missingRequiredValue),
        ("AddRequiredWithoutDefault", "Model.xcdatamodeld", true, nil),
        ("AttributeTypeChange", "Model.xcdatamodeld", false, .notInferable),
        ("TypeChangeWithMappingModel", "Typed.xcdatamodeld", false, nil),
    ] as [(String, String, Bool, SchemaDiff.Failure?)])
    func whetherAMigrationFails(fixture: String, bundle: String, givenAMappingModel: Bool, failure: SchemaDiff.Failure?) throws {
        var diff = try diff(fixture, bundle: bundle)
        if givenAMappingModel { diff.hasMappingModel = true }
        #expect(diff.failure == failure, "\(diff.verdict) \(DiffRendering.summary(diff))")
    }

    @Test func aNewValueTransformerChangesNoHashButChangesHowValuesAreRead() throws {
        let diff = try diff("TransformerChange")
        let change = try only(diff)
        #expect(change.aspect == .valueTransformerName)
        #expect(!change.hashChanging && change.altersStoredValuesUnhashed)
        #expect(diff.verdict == .noMigration)
    }

    @Test func givingTwoRootEntitiesACommonParentMergesHierarchies() throws {
        let diff = try diff("MergeHierarchies")
        let parents = diff.changes.filter { $0.aspect == .parentEntity }
        #expect(parents.map(\.entityName) == ["Photo", "Video"])
        #expect(parents.allSatisfy { !$0.lightweight && $0.hashChanging })
        // The caption moved up into Media: no loss for Photo or Video, so Media's addition and the
        // two new parents are the whole diff.
        #expect(!diff.changes.contains { $0.kind == .removed && $0.element == .attribute })
        #expect(diff.changes.map { "\($0.kind.rawValue) \($0.element.rawValue) \($0.entityName)" }
            == ["added entity Media", "changed entity Photo", "changed entity Video"])
        #expect(diff.verdict == .notInferable)
    }

    @Test func aToManyBecomingToOneLosesLinks() throws {
        let diff = try diff("ToManyBecomesToOne")
        let change = try only(diff)
        #expect(change.aspect == .isToMany && change.dataLoss && change.lightweight)
        // The loss is momlint's inference (docs/migrations.md says so); the source says so too.
        #expect(change.sources.contains(.inferred))
    }

    /// The children of a removed abstract parent lose the attributes they inherited from it: the
    /// parent had no rows of its own, but each child's rows held the values.
    @Test func attributesInheritedFromARemovedAbstractParentAreLost() throws {
        let diff = try diff("RemoveAbstractParent")
        let lost = try #require(diff.changes.first { $0.kind == .removed && $0.element == .attribute })
        #expect(lost.entityName == "Continent" && lost.propertyName == "updatedAt" && lost.dataLoss)
        #expect(lost.details == "attribute 'Continent.updatedAt' (inherited from 'Region') removed with its values")
        let parent = try #require(diff.changes.first { $0.element == .entity && $0.kind == .removed })
        #expect(parent.entityName == "Region" && !parent.dataLoss)
        #expect(diff.verdict == .lightweight && diff.losesData)
    }

    /// An entity that leaves a hierarchy whose parent lives on with the property loses it too;
    /// a property the parent itself drops is reported once, at the parent.
    @Test func leavingAHierarchyLosesTheInheritedValuesOnce() throws {
        let old = try Fixtures.model("""
            <entity name="Item"><attribute name="title" optional="YES" attributeType="String"/>\
            <attribute name="flag" optional="YES" attributeType="Boolean"/></entity>
            <entity name="Note" parentEntity="Item"/>
            <entity name="Task" parentEntity="Item"/>
            """)
        let new = try Fixtures.model("""
            <entity name="Item"><attribute name="title" optional="YES" attributeType="String"/></entity>
            <entity name="Note"/>
            <entity name="Task" parentEntity="Item"/>
            """)
        let removals = SchemaDiff(from: old, to: new).changes.filter { $0.kind == .removed }
        #expect(removals.map(\.details) == [
            "attribute 'Item.flag' removed with its values",
            "attribute 'Note.title' (inherited from 'Item') removed with its values",
        ])
    }

    @Test func aRelationshipPointedAtAnotherEntityIsNotInferable() throws {
        let diff = try diff("DestinationChange")
        let change = try only(diff)
        #expect(change.aspect == .destinationEntity && change.oldValue == "Author" && change.newValue == "Person")
        #expect(change.hashChanging && !change.lightweight && change.failsWhen == nil)
        #expect(diff.verdict == .notInferable)
    }

    @Test func removingAConcreteEntityLosesItsRowsButAnAbstractOneLosesNothing() throws {
        let diff = try diff("RemoveEntity")
        #expect(diff.changes.map { "\($0.kind.rawValue) \($0.element.rawValue) \($0.entityName)" }
            == ["removed entity Draft", "removed entity Item"])
        #expect(diff.changes.map(\.dataLoss) == [true, false])
        #expect(diff.changes.allSatisfy { $0.hashChanging && $0.lightweight })
        #expect(diff.verdict == .lightweight && diff.losesData)
    }

    /// Persistent → transient drops the stored values; transient → persistent is a new column,
    /// which a required attribute without a default leaves empty in every row.
    @Test func transienceChangesLoseDataOrNeedAValue() throws {
        let diff = try diff("TransientChange")
        #expect(diff.changes.map(\.aspect) == [.isTransient, .isTransient])
        let madeTransient = try #require(diff.changes.first { $0.propertyName == "preview" })
        #expect(madeTransient.dataLoss && madeTransient.hashChanging && madeTransient.lightweight && madeTransient.failsWhen == nil)
        let madePersistent = try #require(diff.changes.first { $0.propertyName == "score" })
        #expect(!madePersistent.dataLoss && madePersistent.lightweight && madePersistent.failsWhen == .everyRow)
        #expect(diff.verdict == .lightweight && diff.losesData && diff.mayFail)
    }

    @Test func anOrderingChangeIsMigratedWithoutLoss() throws {
        let diff = try diff("OrderingChange")
        let change = try only(diff)
        #expect(change.aspect == .isOrdered && change.oldValue == "false" && change.newValue == "true")
        #expect(change.hashChanging && change.lightweight && !change.dataLoss)
        #expect(diff.verdict == .lightweight)
    }

    @Test func aConcreteEntityMadeAbstractLosesItsRows() throws {
        let diff = try diff("ConcreteMadeAbstract")
        let change = try only(diff)
        #expect(change.aspect == .isAbstract && change.dataLoss && change.hashChanging && change.lightweight)
        #expect(diff.verdict == .lightweight && diff.losesData)
    }

    /// Every field `momlint diff --format json` writes is described by the schema (whose
    /// `additionalProperties` is false), with the values it allows; `failsWhen` and `mayFail`
    /// were added without making them required.
    @Test func theJSONMatchesTheSchemaFieldByField() throws {
        let schemaData = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("docs/schemas/model-diff.schema.json")))
        let schema = try #require(try JSONSerialization.jsonObject(with: schemaData) as? [String: Any])
        let properties = try #require(schema["properties"] as? [String: Any])
        let changeSchema = try #require(((properties["changes"] as? [String: Any])?["items"]) as? [String: Any])
        let changeProperties = try #require(changeSchema["properties"] as? [String: Any])
        let failsWhen = try #require((changeProperties["failsWhen"] as? [String: Any])?["enum"] as? [String])
        #expect(Set(failsWhen) == Set(SchemaChange.MissingValueFailure.allCases.map(\.rawValue)))
        #expect(!(schema["required"] as? [String] ?? []).contains("mayFail"))
        #expect(!(changeSchema["required"] as? [String] ?? []).contains("failsWhen"))
        for name in ["TransientChange", "RequiredWithoutDefault", "RemoveAttribute"] {
            let diff = try diff(name)
            let data = try DiffRendering.json(diff, olderFile: "a", newerFile: "b")
            let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(Set(document.keys).isSubset(of: Set(properties.keys)), "\(name): \(document.keys)")
            #expect(Set(schema["required"] as? [String] ?? []).isSubset(of: Set(document.keys)))
            #expect(document["mayFail"] as? Bool == diff.mayFail)
            for change in document["changes"] as? [[String: Any]] ?? [] {
                #expect(Set(change.keys).isSubset(of: Set(changeProperties.keys)), "\(name): \(change.keys)")
                if let value = change["failsWhen"] as? String { #expect(failsWhen.contains(value)) }
            }
        }
    }

    @Test func aRenameInACloudKitModelIsARenameForTheDiff() throws {
        let diff = try diff("CloudKitRename")
        #expect(diff.changes.map { "\($0.kind.rawValue) \($0.propertyName ?? "")" } == ["renamed text", "added pinned"])
        #expect(!diff.losesData && diff.verdict == .lightweight)
    }

    @Test func defaultValuesAndDeleteRulesNeedNoMigration() throws {
        let diff = try diff("DefaultValueOnly")
        #expect(Set(diff.changes.compactMap(\.aspect)) == [.defaultValue, .deletionRule])
        #expect(diff.changes.allSatisfy { !$0.hashChanging })
        #expect(diff.verdict == .noMigration)
    }

    /// Fetch indexes are no input of a version hash; uniqueness constraints are (the table said
    /// neither was; Core Data's own hashes of CoreDataPlus's constrained 'Author' and 'Book'
    /// include them: `VersionHashGoldenTests`), so adding one needs a migration.
    @Test func fetchIndexesAreNotHashInputsButConstraintsAre() throws {
        let diff = try diff("IndexesAndConstraints")
        #expect(diff.changes.map(\.element) == [.fetchIndex, .uniquenessConstraint])
        #expect(diff.changes.allSatisfy { $0.kind == .added })
        #expect(diff.changes.map(\.hashChanging) == [false, true])
        #expect(diff.verdict == .lightweight)
    }

    @Test func identicalModelsHaveNoChanges() throws {
        let body = "<entity name=\"A\"><attribute name=\"x\" optional=\"YES\" attributeType=\"String\"/></entity>"
        let diff = SchemaDiff(from: try Fixtures.model(body), to: try Fixtures.model(body))
        #expect(diff.changes.isEmpty && diff.verdict == .noMigration)
    }

    @Test func aPropertyMovedIntoAParentOfTheSameHierarchyIsNoLoss() throws {
        let old = try Fixtures.model("""
            <entity name="Item" isAbstract="YES"/>
            <entity name="Note" parentEntity="Item"><attribute name="title" optional="YES" attributeType="String"/></entity>
            """)
        let new = try Fixtures.model("""
            <entity name="Item" isAbstract="YES"><attribute name="title" optional="YES" attributeType="String"/></entity>
            <entity name="Note" parentEntity="Item"/>
            """)
        let diff = SchemaDiff(from: old, to: new)
        #expect(diff.changes.map(\.kind) == [.added])
        #expect(diff.changes.first?.entityName == "Item")
        #expect(!diff.losesData && diff.verdict == .lightweight)
    }
}

@Suite struct BundleVersionsTests {
    func model(_ name: String, identifier: String? = nil, current: Bool = false) throws -> Model {
        let attributes = identifier.map { " userDefinedModelVersionIdentifier=\"\($0)\"" } ?? ""
        return try ModelLoader().model(
            fromContents: Array(Fixtures.contents("<entity name=\"A\"/>", modelAttributes: attributes).utf8),
            file: "/b/M.xcdatamodeld/\(name).xcdatamodel/contents",
            version: ModelVersion(bundlePath: "/b/M.xcdatamodeld", name: name, bundleVersionNames: [],
                                  selection: current ? .declaredCurrent : .otherVersion))
    }

    @Test func folderNamesSortNaturally() throws {
        let models = try ["Model 10", "Model", "Model 2"].map { try model($0, current: $0 == "Model 10") }
        let bundle = try #require(BundleVersions(bundlePath: "/b/M.xcdatamodeld", models: models))
        #expect(bundle.names == ["Model", "Model 2", "Model 10"])
        #expect(bundle.orderSource == .folderNames)
        #expect(bundle.previous?.version.name == "Model 2")
        #expect(bundle.older.map(\.version.name) == ["Model", "Model 2"])
        #expect(Self.described(bundle.steps(along: .direct), in: bundle) == ["Model → Model 10", "Model 2 → Model 10"])
        #expect(Self.described(bundle.steps(along: .stepwise), in: bundle) == ["Model → Model 2", "Model 2 → Model 10"])
        #expect(Self.described(bundle.lastStep.map { [$0] } ?? [], in: bundle) == ["Model 2 → Model 10"])
    }

    /// Each migration of a path as "older → newer".
    static func described(_ steps: [BundleVersions.Step], in bundle: BundleVersions) -> [String] {
        steps.map { "\(bundle.order[$0.olderIndex].name) → \(bundle.order[$0.newerIndex].name)" }
    }

    @Test func versionIdentifiersWinWhenEveryVersionHasOne() throws {
        let models = [try model("Beta", identifier: "1.2"), try model("Alpha", identifier: "1.10", current: true),
                      try model("Gamma", identifier: "1.9")]
        let bundle = try #require(BundleVersions(bundlePath: "/b/M.xcdatamodeld", models: models))
        #expect(bundle.names == ["Beta", "Gamma", "Alpha"])
        #expect(bundle.orderSource == .versionIdentifiers)
        #expect(bundle.previous?.version.name == "Gamma")
    }

    @Test func aConfiguredOrderWins() throws {
        let models = [try model("First"), try model("Second", current: true), try model("Aardvark")]
        let bundle = try #require(BundleVersions.group(models, configuredOrder: ["M.xcdatamodeld": ["First", "Second"]]).first)
        #expect(bundle.names == ["First", "Second", "Aardvark"])
        #expect(bundle.orderSource == .configured)
        // The current version need not be the last: previous is the one before it.
        #expect(bundle.previous?.version.name == "First")
        #expect(bundle.older.map(\.version.name) == ["First", "Aardvark"])
        // Core Data migrates a store of any version to the current one (issue 22: "older" is
        // every version other than the current one), so one ordered after it is a source too.
        #expect(bundle.afterCurrent.map(\.name) == ["Aardvark"])
        #expect(Self.described(bundle.steps(along: .direct), in: bundle) == ["First → Second", "Aardvark → Second"])
        // Stepwise, too, a version ordered after the current one goes to it (only a downgrade meets it).
        #expect(Self.described(bundle.steps(along: .stepwise), in: bundle) == ["First → Second", "Aardvark → Second"])
        #expect(Self.described(bundle.lastStep.map { [$0] } ?? [], in: bundle) == ["First → Second"])
    }

    /// An older version that cannot be read keeps its place in the order and is named where it
    /// is compared; the others are ordered and compared as usual.
    @Test func anUnreadableOlderVersionKeepsItsPlace() throws {
        let path = Fixtures.path("Fixtures/Models/Migrations/UnreadableOlderVersion/Model.xcdatamodeld")
        let reading = BundleVersions.read(bundle: path, loader: ModelLoader())
        #expect(reading.failures.isEmpty)
        let bundle = try #require(reading.bundle)
        #expect(bundle.names == ["Model", "Model 2", "Model 3"])
        #expect(bundle.unreadable.map(\.name) == ["Model"])
        #expect(bundle.unreadable.first?.error.reason == .legacyBinaryFormat)
        #expect(bundle.current.version.name == "Model 3" && bundle.previous?.version.name == "Model 2")
        #expect(bundle.older.map(\.version.name) == ["Model 2"])
        #expect(Self.described(bundle.lastStep.map { [$0] } ?? [], in: bundle) == ["Model 2 → Model 3"])
        #expect(Self.described(bundle.steps(along: .direct), in: bundle) == ["Model → Model 3", "Model 2 → Model 3"])
        // The unreadable version starts a step that cannot be checked; the next one still is.
        #expect(Self.described(bundle.steps(along: .stepwise), in: bundle) == ["Model → Model 2", "Model 2 → Model 3"])
        #expect(bundle.order[bundle.steps(along: .stepwise)[0].olderIndex].model == nil)
    }

    @Test func mappingModelNamesMustBeWholeFolders() {
        let xml = "<a>Model.xcdatamodeld/Model 2.xcdatamodel</a><b>Model.xcdatamodeld/OldModel.xcdatamodel</b>"
        var mappings = MappingModels()
        #expect(!mappings.covers(from: "Model", to: "Model 2"))
        mappings = MappingModels(documents: ["x.xcmappingmodel": xml])
        #expect(!mappings.covers(from: "Model", to: "Model 2"))
        #expect(mappings.covers(from: "OldModel", to: "Model 2"))
    }

    /// Each folder is walked once: a folder inside another searched one is dropped, unless a
    /// skipped folder (build output) lies between them, which the outer walk would not enter.
    @Test func mappingSearchWalksNestedFoldersOnce() {
        #expect(MappingModels.outermost(["/p", "/p/App", "/p/./App/", "/q", "/p"]) == ["/p", "/q"])
        #expect(MappingModels.outermost(["/p/App", "/p"]) == ["/p"])
        #expect(MappingModels.outermost(["/p", "/p/.build/x", "/pq"]) == ["/p", "/p/.build/x", "/pq"])
        let found = MappingModels(searching: [Fixtures.path("Fixtures/Models/Migrations"),
                                              Fixtures.path("Fixtures/Models/Migrations/TypeChangeWithMappingModel")])
        // The fixtures hold two mapping models (TypeChangeWithMappingModel, ConsecutiveMappingModels),
        // each found once although the second folder searched is inside the first.
        #expect(found.mappingModelPaths.count == 2)
        #expect(found.covers(from: "Model", to: "Model 2", inBundle: "Typed.xcdatamodeld"))
        #expect(found.mappedVersions(among: ["Model", "Model 2", "Model 3"], inBundle: "Model.xcdatamodeld") == [["Model", "Model 2"]])
    }

    /// The walk reads a mapping model whose XML is a FIFO as empty (never waits for a writer),
    /// does not follow a link cycle, and does not enter build output.
    @Test func mappingSearchSurvivesFIFOsLinksAndBuildOutput() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("mapping-walk-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let fileManager = FileManager.default
        try fileManager.createDirectory(atPath: root + "/App/Blocked.xcmappingmodel", withIntermediateDirectories: true)
        try fileManager.createDirectory(atPath: root + "/App/Real.xcmappingmodel", withIntermediateDirectories: true)
        try fileManager.createDirectory(atPath: root + "/.build/Hidden.xcmappingmodel", withIntermediateDirectories: true)
        try #require(mkfifo(root + "/App/Blocked.xcmappingmodel/xcmapping.xml", 0o600) == 0)
        try "<model>Model.xcdatamodel Model 2.xcdatamodel</model>".write(
            toFile: root + "/App/Real.xcmappingmodel/xcmapping.xml", atomically: true, encoding: .utf8)
        try fileManager.createSymbolicLink(atPath: root + "/App/loop", withDestinationPath: root)
        let found = MappingModels(searching: [root])
        #expect(Set(found.mappingModelPaths) == [root + "/App/Blocked.xcmappingmodel", root + "/App/Real.xcmappingmodel"])
        // Asked of a pair no mapping model covers, every one is read — the FIFO as empty, at once.
        #expect(!found.covers(from: "Other", to: "Model 2"))
        #expect(found.covers(from: "Model", to: "Model 2"))
    }
}
