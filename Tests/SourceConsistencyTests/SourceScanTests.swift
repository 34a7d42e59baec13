import DataModel
import Foundation
import SourceConsistency
import Testing

/// Scans Swift held in memory, one file per entry.
func scan(_ files: [String: String]) -> SourceScan {
    SourceScan(files: files.sorted { $0.key < $1.key }.map { SwiftSourceFile(path: $0.key, text: $0.value) })
}

/// A fresh folder under the system's temporary directory, removed by `body`'s caller.
func withTemporaryFolder(_ body: (String) throws -> Void) throws {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("momlint-sources-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try body(folder)
}

func write(_ text: String, to path: String) throws {
    try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                            withIntermediateDirectories: true)
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
}

@Suite("Finding managed classes in Swift sources")
struct SourceScanTests {
    @Test("subclasses through other classes, extensions and @objc names are found; plain classes are not")
    func findsManagedClasses() {
        let sources = scan([
            "A.swift": """
                import CoreData
                class Base: CoreData.NSManagedObject {}
                @objc(LegacyItem) final class Item: Base {}
                final class Helper: NSObject { var count: UInt32 = 0 }
                struct Value { var count: UInt32 }
                """,
            "B.swift": """
                extension Item {
                    @NSManaged var title: String?
                }
                // A class from another module: managed because it holds @NSManaged properties.
                extension Imported {
                    @NSManaged var stamp: Date?
                }
                """,
        ])
        #expect(sources.problems.isEmpty)
        #expect(sources.classes.map(\.qualifiedName) == ["Base", "Item", "Imported"])
        let item = sources.classes(named: "Item")[0]
        #expect(item.objectiveCName == "LegacyItem")
        #expect(item.superclassName == "Base")
        #expect(item.properties.map(\.name) == ["title"])
        #expect(item.properties[0].location == SourceLocation(file: "B.swift", line: 2, column: 5))
        #expect(sources.knowsAllProperties(of: item))
        let imported = sources.classes(named: "Imported")[0]
        #expect(imported.declaration == nil)
        #expect(!sources.knowsAllProperties(of: imported))
    }

    /// `@NSManaged` inside an `#if` in the attribute list is read, as the SwiftData reader reads
    /// `@Model` there (`SwiftAttributes`, shared by both).
    @Test("@NSManaged written inside #if … #endif marks the property managed")
    func managedInsideIfConfig() {
        let sources = scan(["Item.swift": """
            import CoreData
            final class Item: NSManagedObject {
                #if canImport(CoreData)
                @NSManaged
                #endif
                var title: Optional<Swift.String>
                var scratch: String = ""
            }
            """])
        #expect(sources.problems.isEmpty)
        let item = sources.classes(named: "Item")[0]
        #expect(item.properties.map(\.name) == ["title", "scratch"])
        #expect(item.properties.map(\.isManaged) == [true, false])
        #expect(item.properties.map { $0.type?.baseName } == ["String", "String"])
        #expect(item.properties.map { $0.type?.optionality } == [.optional, .nonOptional])
    }

    @Test("property types: optionals, module prefixes, aliases, @objc keys, shared annotations, #if")
    func readsPropertyTypes() throws {
        let sources = scan(["Item.swift": """
            import CoreData
            typealias Identifier = UUID
            typealias MaybeDate = Date?
            final class Item: NSManagedObject {
                @NSManaged var a: Swift.Int16
                @NSManaged var b: Optional<Foundation.Date>
                @NSManaged var c: String!
                @NSManaged var d: Identifier
                @NSManaged var e: MaybeDate
                @NSManaged @objc(sort_key) public var sortKey: Int64
                @NSManaged var lower, upper: Int32
                #if os(iOS)
                @NSManaged var f: Data?
                #endif
                static var shared: Item?
                class var kind: String { "item" }
                var computed: Int { 1 }
                func g() { var local: UInt8 = 0; _ = local }
            }
            """])
        let properties = try #require(sources.classes.first).properties
        #expect(properties.map(\.name) == ["a", "b", "c", "d", "e", "sortKey", "lower", "upper", "f", "computed"])
        #expect(properties.map { $0.type?.baseName } == [
            "Int16", "Date", "String", "UUID", "Date", "Int64", "Int32", "Int32", "Data", "Int",
        ])
        #expect(properties.map { $0.type?.optionality } == [
            .nonOptional, .optional, .implicitlyUnwrapped, .nonOptional, .optional, .nonOptional,
            .nonOptional, .nonOptional, .optional, .nonOptional,
        ])
        #expect(properties.map(\.key)[5] == "sort_key")
        #expect(properties.map(\.isManaged) == [true, true, true, true, true, true, true, true, true, false])
    }

    @Test("nested classes carry their enclosing names; non-ASCII text keeps columns in characters")
    func nestedNamesAndColumns() throws {
        let sources = scan(["Ünïcode.swift": """
            enum Catalogue {
                final class Item: NSManagedObject { /* é */ @NSManaged var n: UInt8 }
            }
            """])
        let item = try #require(sources.classes.first)
        #expect(item.qualifiedName == "Catalogue.Item")
        #expect(item.declaration == SourceLocation(file: "Ünïcode.swift", line: 2, column: 5))
        // `/* é */` is 7 characters but 8 bytes: the column counts characters.
        #expect(item.properties.first?.location.column == 49)
    }

    @Test("what a folder search skips and what it reports")
    func folderSearch() throws {
        try withTemporaryFolder { folder in
            try write("final class A: NSManagedObject { @NSManaged var n: UInt8 }", to: folder + "/App/A.swift")
            for skipped in [".build", ".build-linux", ".git", "DerivedData", "Pods", "Carthage", "node_modules"] {
                try write("final class S: NSManagedObject { @NSManaged var n: UInt8 }",
                          to: folder + "/\(skipped)/checkouts/S.swift")
            }
            try write("not swift", to: folder + "/App/README.md")
            try Data([0x63, 0x6C, 0x61, 0x73, 0x73, 0xFF, 0xFE]).write(to: URL(fileURLWithPath: folder + "/App/Bad.swift"))
            try FileManager.default.createDirectory(atPath: folder + "/Empty", withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: folder + "/App/Loop", withDestinationPath: folder)

            let sources = SourceScan(paths: [folder, folder + "/App/A.swift", folder + "/Empty",
                                             folder + "/Missing", folder + "/App/README.md"])
            #expect(sources.classes.map(\.name) == ["A"])
            #expect(sources.fileCount == 1)
            #expect(sources.problems.map { $0.description.replacingOccurrences(of: folder, with: "") } == [
                "/App/Bad.swift: error: not UTF-8 text, so not a Swift source; it was not checked",
                "/Empty: error: no .swift file in this folder or below it",
                "/Missing: error: no such file or directory",
                "/App/README.md: error: not a Swift source: pass a folder of Swift sources or a .swift file to --sources",
            ])
        }
    }

    @Test("deeply nested or hostile Swift is reported, not crashed on")
    func hostileInputIsReported() {
        let deep = String(repeating: "(", count: 1_000) + String(repeating: ")", count: 1_000)
        let sources = scan([
            "Deep.swift": "let x = \(deep)\nfinal class A: NSManagedObject { @NSManaged var n: UInt8 }",
            "Garbage.swift": "}}}} class { @NSManaged var : ; extension { #if",
            "Empty.swift": "",
        ])
        #expect(sources.problems.map(\.path) == ["Deep.swift", "Garbage.swift"])
        #expect(sources.problems.allSatisfy { $0.line != nil && $0.message.hasPrefix("not valid Swift: ") })
    }
}
