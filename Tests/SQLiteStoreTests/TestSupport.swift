import DataModel
import Foundation
@testable import SQLiteStore

/// Models written inline, loaded by the real parser, and scratch files for stores.
enum TestModels {
    static func model(_ entities: String, file: String = "Test.xcdatamodel/contents") throws -> Model {
        let contents = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            \(entities)
            </model>
            """
        return try ModelLoader().model(fromContents: Array(contents.utf8), file: file)
    }

    /// Departments and employees (one-to-many, Deny from Department), tags (many-to-many),
    /// playlists (ordered), an entity and attribute with spaces, and an abstract parent with a
    /// uniqueness constraint inherited by two sub-entities.
    static func company() throws -> Model {
        try model("""
            <entity name="Department">
                <attribute name="name" attributeType="String"/>
                <relationship name="employees" optional="YES" toMany="YES" deletionRule="Deny" destinationEntity="Employee" inverseName="department" inverseEntity="Employee"/>
            </entity>
            <entity name="Employee">
                <attribute name="name" attributeType="String"/>
                <attribute name="age" optional="YES" attributeType="Integer 32" defaultValueString="30" usesScalarValueType="YES"/>
                <relationship name="department" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Department" inverseName="employees" inverseEntity="Department"/>
                <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="employees" inverseEntity="Tag"/>
            </entity>
            <entity name="Tag">
                <attribute name="label" optional="YES" attributeType="String"/>
                <relationship name="employees" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Employee" inverseName="tags" inverseEntity="Employee"/>
            </entity>
            <entity name="Playlist">
                <relationship name="tracks" optional="YES" toMany="YES" ordered="YES" deletionRule="Cascade" destinationEntity="Track" inverseName="playlist" inverseEntity="Track"/>
            </entity>
            <entity name="Track">
                <attribute name="title" optional="YES" attributeType="String"/>
                <relationship name="playlist" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Playlist" inverseName="tracks" inverseEntity="Playlist"/>
            </entity>
            <entity name="Line Item">
                <attribute name="unit price" optional="YES" attributeType="Double"/>
                <attribute name="when" optional="YES" attributeType="Date"/>
                <attribute name="ref" optional="YES" attributeType="UUID"/>
            </entity>
            <entity name="Party" isAbstract="YES">
                <attribute name="email" optional="YES" attributeType="String"/>
                <uniquenessConstraints>
                    <uniquenessConstraint><constraint value="email"/></uniquenessConstraint>
                </uniquenessConstraints>
            </entity>
            <entity name="Customer" parentEntity="Party">
                <attribute name="tier" optional="YES" attributeType="Integer 16"/>
            </entity>
            <entity name="Supplier" parentEntity="Party">
                <attribute name="tier" optional="YES" attributeType="String"/>
            </entity>
            """)
    }
}

/// A scratch directory for one test, removed when the value is released.
final class ScratchDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("momlint-sqlite-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}

#if canImport(Glibc)
import Glibc

/// What happens in a folder while it is watched, through Linux's inotify(7): files created,
/// written, deleted, renamed or given new attributes, including those a listing taken before
/// and after cannot see (a `-wal` created and deleted again by one connection).
final class FolderWatch {
    static var isAvailable: Bool {
        let descriptor = inotify_init1(Int32(IN_NONBLOCK))
        guard descriptor >= 0 else { return false }
        close(descriptor)
        return true
    }

    private let descriptor: Int32

    init(_ path: String) throws {
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        let mask = UInt32(IN_CREATE | IN_MODIFY | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB | IN_CLOSE_WRITE)
        guard inotify_add_watch(descriptor, path, mask) >= 0 else {
            close(descriptor)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
    }

    deinit { close(descriptor) }

    /// The events since the watch began or the last call, as "CREATE Authors.sqlite-wal".
    func events() -> [String] {
        let kinds: [(UInt32, String)] = [
            (UInt32(IN_CREATE), "CREATE"), (UInt32(IN_MODIFY), "MODIFY"), (UInt32(IN_DELETE), "DELETE"),
            (UInt32(IN_MOVED_FROM), "MOVED_FROM"), (UInt32(IN_MOVED_TO), "MOVED_TO"), (UInt32(IN_ATTRIB), "ATTRIB"),
            (UInt32(IN_CLOSE_WRITE), "CLOSE_WRITE"),
        ]
        var events: [String] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            // struct inotify_event { int wd; uint32_t mask, cookie, len; char name[len]; }
            var offset = 0
            while offset + 16 <= count {
                let mask = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self) }
                let length = Int(buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self) })
                let name = String(decoding: buffer[(offset + 16)..<(offset + 16 + length)].prefix { $0 != 0 }, as: UTF8.self)
                for (bit, kind) in kinds where mask & bit != 0 { events.append("\(kind) \(name)") }
                offset += 16 + length
            }
        }
        return events
    }
}
#endif
