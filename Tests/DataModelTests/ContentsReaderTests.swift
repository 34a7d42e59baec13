import DataModel
import Testing
import MomlintTestSupport

/// Everything.xcdatamodel holds every element and attribute Xcode writes; each is read
/// into its typed field, and everything unknown is kept.
@Suite struct ContentsReaderTests {
    let file = Fixtures.path("Fixtures/Models/Everything.xcdatamodel/contents")

    func everything() throws -> Model {
        let result = ModelLoader().load(paths: [Fixtures.path("Fixtures/Models/Everything.xcdatamodel")])
        #expect(result.failures.isEmpty, "\(result.failures)")
        return try #require(result.models.first)
    }

    @Test func modelAttributes() throws {
        let model = try everything()
        #expect(model.file == file)
        #expect(model.documentVersion == "1.0")
        #expect(model.lastSavedToolsVersion == "22522")
        #expect(model.systemVersion == "23C71")
        #expect(model.minimumToolsVersion == "Automatic")
        #expect(model.sourceLanguage == "Swift")
        #expect(model.userDefinedModelVersionIdentifier == "v7")
        #expect(model.usedWithCloudKit)
        #expect(model.usedWithSwiftData)
        #expect(model.xmlAttributes["futureModelAttribute"] == "kept")
        #expect(model.userInfo["schema"] == "7")
        #expect(model.location == SourceLocation(file: file, line: 2, column: 1))
        #expect(model.version.selection == .standalone)
        #expect(model.entities.map(\.name) == ["Item", "Gadget", "Part", "Person"])
    }

    @Test func entityAttributes() throws {
        let model = try everything()
        let item = try #require(model.entity(named: "Item"))
        #expect(item.representedClassName == ".Item")
        #expect(item.isAbstract)
        #expect(item.codeGeneration == .category)
        #expect(item.versionHashModifier == "2")
        #expect(item.renamingIdentifier == "OldItem")
        #expect(item.elementID == "item-1")
        #expect(item.syncable == true)
        #expect(item.location == SourceLocation(file: file, line: 3, column: 5))
        #expect(item.userInfo["momlint:disable"] == "missing_inverse")
        let gadget = try #require(model.entity(named: "Gadget"))
        #expect(gadget.parentEntityName == "Item")
        #expect(gadget.codeGeneration == .manual)
        #expect(!gadget.isAbstract)
    }

    @Test func attributeFields() throws {
        let item = try #require(try everything().entity(named: "Item"))
        let title = try #require(item.attributes.first { $0.name == "title" })
        #expect(title.attributeType == .string)
        #expect(title.isOptional)
        #expect(title.isTransient)
        #expect(title.defaultValueString == "Untitled")
        #expect(title.minValueString == "1")
        #expect(title.maxValueString == "80")
        #expect(title.regularExpressionString == "[A-Z].*")
        #expect(title.isSpotlightIndexingEnabled)
        #expect(title.preservesValueInHistoryOnDeletion)
        #expect(title.allowsCloudEncryption)
        #expect(title.isIndexed)
        #expect(title.elementID == "title-1")
        #expect(title.versionHashModifier == "t")
        #expect(title.renamingIdentifier == "name")
        #expect(title.xmlAttributes["futureAttributeOption"] == "kept")
        // What a typed field holds is not kept a second time.
        #expect(title.xmlAttributes.names == ["futureAttributeOption"])
        #expect(title.location == SourceLocation(file: file, line: 4, column: 9))

        let count = try #require(item.attributes.first { $0.name == "count" })
        #expect(count.attributeType == .integer16)
        #expect(!count.isOptional, "a missing `optional` means required")
        #expect(count.usesScalarValueType == true)
        #expect(count.minValueString == "-5")

        let createdAt = try #require(item.attributes.first { $0.name == "createdAt" })
        #expect(createdAt.attributeType == .date)
        #expect(createdAt.defaultDateTimeInterval == "694224000")
        #expect(createdAt.minDateTimeInterval == "0")
        #expect(createdAt.maxDateTimeInterval == "1000000000")
        #expect(createdAt.hasDefaultValue)

        let photo = try #require(item.attributes.first { $0.name == "photo" })
        #expect(photo.attributeType == .binary)
        #expect(photo.allowsExternalBinaryDataStorage)

        let colors = try #require(item.attributes.first { $0.name == "colors" })
        #expect(colors.attributeType == .transformable)
        #expect(colors.valueTransformerName == "NSSecureUnarchiveFromData")
        #expect(colors.customClassName == "[String]")

        let derived = try #require(item.attributes.first { $0.name == "titleUppercased" })
        #expect(derived.isDerived)
        #expect(derived.derivationExpression == "uppercase:(title)")

        let address = try #require(item.attributes.first { $0.name == "address" })
        #expect(address.attributeType == .composite)
        #expect(address.compositeName == "Address")
    }

    @Test func everyAttributeType() throws {
        let model = try everything()
        let person = try #require(model.entity(named: "Person"))
        let types = Dictionary(uniqueKeysWithValues: person.attributes.map { ($0.name, $0.attributeType) })
        #expect(types["id"] == .uuid)
        #expect(types["homepage"] == .uri)
        #expect(types["balance"] == .decimal)
        #expect(types["score"] == .integer64)
        #expect(types["level"] == .integer32)
        #expect(types["active"] == .boolean)
        #expect(types["scratch"] == .undefined)
        #expect(model.entity(named: "Part")?.attributes.first?.attributeType == .float)
        #expect(model.entity(named: "Gadget")?.attributes.first?.attributeType == .double)
    }

    @Test func relationshipFields() throws {
        let model = try everything()
        let item = try #require(model.entity(named: "Item"))
        let owner = try #require(item.relationships.first { $0.name == "owner" })
        #expect(owner.destinationEntityName == "Person")
        #expect(owner.inverseName == "items")
        #expect(owner.inverseEntityName == "Person")
        #expect(!owner.isToMany)
        #expect(owner.maxCount == 1)
        #expect(owner.maxCountText == "1")
        #expect(owner.minCountText == nil)
        #expect(owner.xmlAttributes.ordered.isEmpty)
        #expect(owner.deletionRule == .nullify)
        #expect(owner.elementID == "owner-1")

        let parts = try #require(item.relationships.first { $0.name == "parts" })
        #expect(parts.isToMany)
        #expect(parts.isOrdered)
        #expect(parts.minCount == 1)
        #expect(parts.maxCount == 10)
        #expect(parts.deletionRule == .cascade)
        #expect(parts.isRequired, "minCount 1 makes it required")

        let cache = try #require(item.relationships.first { $0.name == "cache" })
        #expect(cache.isTransient)
        #expect(cache.deletionRule == .noAction)
        #expect(cache.inverseName == nil)

        let items = try #require(model.entity(named: "Person")?.relationships.first)
        #expect(items.deletionRule == .deny)
        #expect(items.userInfo["note"] == "people keep their items")
        #expect(items.location == SourceLocation(file: file, line: 62, column: 9))
    }

    @Test func fetchedPropertiesIndexesConstraints() throws {
        let item = try #require(try everything().entity(named: "Item"))
        let fetched = try #require(item.fetchedProperties.first)
        #expect(fetched.name == "recentParts")
        #expect(fetched.isOptional)
        #expect(fetched.fetchRequest?.entityName == "Part")
        // Predefined entities in attribute values are decoded, nothing else is expanded.
        #expect(fetched.fetchRequest?.predicateString == "item == $FETCH_SOURCE && weight > 2")
        #expect(fetched.userInfo["purpose"] == "demo")

        let index = try #require(item.fetchIndexes.first)
        #expect(index.name == "byTitleAndDate")
        #expect(index.elements.map(\.property) == ["title", "createdAt"])
        #expect(index.elements.map(\.order) == ["ascending", "descending"])
        #expect(index.elements.map(\.type) == ["Binary", "Binary"])

        #expect(item.uniquenessConstraints.map(\.propertyNames) == [["title", "owner"], ["createdAt"]])
        #expect(item.uniquenessConstraints.first?.members.last?.location
                == SourceLocation(file: file, line: 27, column: 17))
        #expect(item.compoundIndexes.map { $0.members.map(\.property) } == [["title", "count"]])
    }

    @Test func userInfoColumnsCountCharactersNotBytes() throws {
        let item = try #require(try everything().entity(named: "Item"))
        let entries = item.userInfo.entries
        #expect(entries.map(\.key) == ["momlint:disable", "ü", "second"])
        // `<entry key="ü" value="é"/>` is 26 characters but 28 bytes, after 12 spaces.
        #expect(entries[1].location == SourceLocation(file: file, line: 41, column: 13))
        #expect(entries[2].location == SourceLocation(file: file, line: 41, column: 39))
    }

    @Test func unknownElementsAreKept() throws {
        let item = try #require(try everything().entity(named: "Item"))
        let future = try #require(item.unknownElements.first)
        #expect(future.name == "futureElement")
        #expect(future.attributes["mode"] == "new")
        #expect(future.children.map(\.name) == ["futureChild"])
        #expect(future.location == SourceLocation(file: file, line: 43, column: 9))
    }

    @Test func modelLevelElements() throws {
        let model = try everything()
        #expect(model.composites.map(\.name) == ["Address"])
        #expect(model.composites.first?.attributes.map(\.name) == ["street", "postcode"])
        #expect(model.fetchRequests.map(\.name) == ["ItemsByTitle"])
        #expect(model.fetchRequests.first?.xmlAttributes["resultType"] == "1")
        #expect(model.configurations.map(\.name) == ["Cloud", "Local"])
        #expect(model.configurations.first?.usedWithCloudKit == true)
        #expect(model.configurations.first?.memberEntityNames == ["Item", "Part"])
        #expect(model.configuration(named: "Local")?.usedWithCloudKit == false)
        #expect(model.cloudKitEntityNames == ["Item", "Part"])
    }

    @Test func attributeTypesRoundTripTheirXMLNames() {
        for name in ["Undefined", "Integer 16", "Integer 32", "Integer 64", "Decimal", "Double", "Float", "String",
                     "Boolean", "Date", "Binary", "UUID", "URI", "Transformable", "ObjectID", "Composite"] {
            let type = AttributeType(xmlName: name)
            #expect(type.xmlName == name)
            #expect(type != .unknown(name))
        }
        #expect(AttributeType(xmlName: "UInt32") == .unknown("UInt32"))
        #expect(AttributeType.integer16.integerRange == -32768...32767)
    }

    @Test func deleteRulesRoundTrip() {
        for name in ["No Action", "Nullify", "Cascade", "Deny"] {
            #expect(DeleteRule(xmlName: name).xmlName == name)
        }
        #expect(DeleteRule(xmlName: "Destroy") == .unknown("Destroy"))
    }

    @Test func missingDeletionRuleReadsAsNullify() throws {
        let text = Fixtures.contents("""
            <entity name="A"><relationship name="b" optional="YES" maxCount="1" destinationEntity="A"/></entity>
            """)
        let model = try ModelLoader().model(fromContents: Array(text.utf8), file: "inline")
        let relationship = try #require(model.entities.first?.relationships.first)
        #expect(relationship.deletionRule == .nullify)
        #expect(!relationship.declaresDeletionRule)
    }
}
