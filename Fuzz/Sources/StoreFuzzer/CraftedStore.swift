import DataModel
import Foundation
import GRDB
import SQLiteStore

/// One fuzz input is a recipe for a crafted store (issue 39): a store laid out as Core Data lays
/// one out for a one-entity model is written, then changed by the recipe — hostile schema
/// objects and values chosen from `constructs`, bytes of the file overwritten, and a `-journal`
/// and a `-wal` made of the input's own bytes — and read as `momlint store which-version` and
/// `momlint store dump` read one. Every outcome but a crash, a hang (libFuzzer's `-timeout`),
/// a blow-up (`-rss_limit_mb`) or a changed file is correct; a changed, added or removed file in
/// the store's folder stops the fuzzer (the oracle of "never writes to a file it did not create").
///
/// Recipe: byte 0 chooses how many constructs follow (0–7), each one byte (an index into
/// `constructs`); the next byte holds flags (1: overwrite bytes of the file, 2: add a
/// `-journal`, 4: add a `-wal`, 8: convert to WAL first); the rest is the data the flags use.
@_cdecl("LLVMFuzzerTestOneInput")
public func readCraftedStore(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    var recipe = input[...]
    let folder = CraftedStore.folder
    for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
        try? FileManager.default.removeItem(atPath: folder + "/" + name)
    }
    let store = folder + "/Library.sqlite"
    let constructCount = Int(recipe.popFirst() ?? 0) % 8
    var chosen: [String] = []
    for _ in 0..<constructCount {
        guard let byte = recipe.popFirst() else { break }
        chosen.append(CraftedStore.constructs[Int(byte) % CraftedStore.constructs.count])
    }
    let flags = recipe.popFirst() ?? 0
    do {
        try CraftedStore.write(store, wal: flags & 8 != 0, then: chosen)
    } catch {
        return 0  // a recipe SQLite refuses to build is not a store
    }
    let rest = Array(recipe)
    let third = rest.count / 3
    if flags & 1 != 0, let handle = FileHandle(forUpdatingAtPath: store) {
        // Pairs of (page offset, byte): damage scattered over the file's pages.
        let damage = rest[0..<third]
        var index = damage.startIndex
        while index + 2 < damage.endIndex {
            let offset = (UInt64(damage[index]) << 8 | UInt64(damage[index + 1])) % 8192
            try? handle.seek(toOffset: offset)
            try? handle.write(contentsOf: Data([damage[index + 2]]))
            index += 3
        }
        try? handle.close()
    }
    if flags & 2 != 0 {
        _ = FileManager.default.createFile(atPath: store + "-journal", contents: Data(rest[third..<(2 * third)]))
    }
    if flags & 4 != 0 {
        _ = FileManager.default.createFile(atPath: store + "-wal", contents: Data(rest[(2 * third)...]))
    }
    let before = CraftedStore.files(in: folder)
    _ = try? StoreFileDescription.read(path: store)
    if let reader = try? SQLiteObjectStore(path: store, model: CraftedStore.model, access: .readOnly) {
        var written = 0
        for format in StoreDump.Format.allCases {
            try? reader.writeDump(format: format) { bytes in written += bytes.count }
        }
        try? reader.close()
    }
    let after = CraftedStore.files(in: folder)
    precondition(before == after, "reading the crafted store changed its folder: \(before.keys.sorted()) -> \(after.keys.sorted())")
    return 0
}

enum CraftedStore {
    static let folder: String = {
        let path = NSTemporaryDirectory() + "/momlint-store-fuzz-\(getpid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    static let model: Model = {
        let contents = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Book" representedClassName="Book" syncable="YES">
                    <attribute name="cover" optional="YES" attributeType="Binary"/>
                    <attribute name="settings" optional="YES" attributeType="Transformable"/>
                    <attribute name="title" optional="YES" attributeType="String"/>
                </entity>
            </model>
            """
        return try! ModelLoader().model(fromContents: Array(contents.utf8), file: "fuzz/Library.xcdatamodel/contents")
    }()

    static let endless = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)"

    /// What a hostile contributor would put in a store: each cheap to write (no row is inserted
    /// where a generated column would be computed on the way in: the 1e9-character one takes
    /// seconds), and each dangerous to read without momlint's defences.
    static let constructs: [String] = [
        "DROP TABLE Z_PRIMARYKEY; CREATE VIEW Z_PRIMARYKEY AS \(endless) SELECT x AS Z_ENT, 'Book' AS Z_NAME, 0 AS Z_SUPER, 0 AS Z_MAX FROM c",
        "CREATE VIEW endless AS \(endless) SELECT x AS Z_ENT, 'Book' AS Z_NAME FROM c; DROP TABLE Z_PRIMARYKEY; CREATE VIRTUAL TABLE Z_PRIMARYKEY USING fts5(Z_ENT, Z_NAME, Z_SUPER, Z_MAX, content=endless, content_rowid=Z_ENT)",
        "CREATE VIEW endless2 AS \(endless) SELECT x AS a FROM c; CREATE VIRTUAL TABLE ZEXTRA USING fts5(a, content=endless2, content_rowid=a)",
        "CREATE VIRTUAL TABLE search USING fts5(body)",
        "CREATE TABLE Z_M2 (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR, Z_PLIST BLOB GENERATED ALWAYS AS (zeroblob(999999999)) VIRTUAL); INSERT INTO Z_M2 (Z_VERSION) VALUES (1); DROP TABLE Z_METADATA; ALTER TABLE Z_M2 RENAME TO Z_METADATA",
        "CREATE TABLE Z_P2 (Z_ENT INTEGER PRIMARY KEY, Z_SUPER INTEGER, Z_MAX INTEGER, Z_NAME VARCHAR GENERATED ALWAYS AS (printf('%.*c', 1000000000, 'x')) VIRTUAL); DROP TABLE Z_PRIMARYKEY; ALTER TABLE Z_P2 RENAME TO Z_PRIMARYKEY",
        "CREATE TABLE ZB2 (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCOVER BLOB, ZSETTINGS BLOB, ZTITLE VARCHAR GENERATED ALWAYS AS (zeroblob(100000000)) VIRTUAL); INSERT INTO ZB2 (Z_PK, Z_ENT, Z_OPT) VALUES (1, 1, 1); DROP TABLE ZBOOK; ALTER TABLE ZB2 RENAME TO ZBOOK",
        "CREATE TRIGGER t AFTER INSERT ON ZBOOK BEGIN DELETE FROM Z_METADATA; END",
        "UPDATE Z_PRIMARYKEY SET Z_NAME = char(10) || '::error::forged' || char(27) || '[2J' || char(8238)",
        "UPDATE ZBOOK SET ZTITLE = 'a' || char(0) || 'b'",
        "UPDATE ZBOOK SET ZTITLE = X'FFFE00C3'",
        "UPDATE ZBOOK SET ZCOVER = 'text in a blob column', ZTITLE = 1e999",
        "UPDATE ZBOOK SET Z_ENT = 'one'",
        "UPDATE ZBOOK SET Z_ENT = 99",
        "UPDATE ZBOOK SET Z_PK = NULL",
        "INSERT INTO ZBOOK (Z_PK, Z_ENT, Z_OPT, ZTITLE) SELECT x + 100, 1, 1, printf('book %d', x) FROM (\(endless) SELECT x FROM c LIMIT 3000)",
        "UPDATE Z_METADATA SET Z_PLIST = X'62706C6973743030D101020304'",
        "UPDATE Z_METADATA SET Z_PLIST = 'not a property list'",
        "UPDATE Z_METADATA SET Z_PLIST = NULL",
        "DELETE FROM Z_METADATA",
        "DROP TABLE Z_METADATA",
        "INSERT INTO Z_PRIMARYKEY VALUES (16001, 'CHANGE', 0, 1), (2, 'Ghost', 1, 0)",
        "UPDATE Z_PRIMARYKEY SET Z_SUPER = 1",
        "ALTER TABLE ZBOOK ADD COLUMN ZEXTRA VARCHAR",
        "CREATE TABLE Z_1TAGS (Z_1BOOKS INTEGER, Z_2TAGS INTEGER)",
        "CREATE INDEX i ON ZBOOK (length(ZTITLE) * 2)",
        "CREATE TABLE \"Z\n::error::forged\" (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER)",
        "PRAGMA user_version = 7",
    ]

    static func write(_ path: String, wal: Bool, then constructs: [String]) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in
            if wal { _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") }
            try db.execute(sql: """
                CREATE TABLE ZBOOK (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCOVER BLOB, ZSETTINGS BLOB, ZTITLE VARCHAR);
                CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
                CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
                CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB);
                INSERT INTO Z_PRIMARYKEY VALUES (1, 'Book', 0, 1);
                INSERT INTO ZBOOK VALUES (1, 1, 1, NULL, NULL, 'book');
                """)
            let plist = try PropertyListSerialization.data(fromPropertyList: [
                "NSStoreType": "SQLite", "NSStoreUUID": "6F1B1D63-0E55-4C4B-9C0B-6A1E6C3B7A11",
                "NSPersistenceFrameworkVersion": 1344, "NSStoreModelVersionHashes": ["Book": Data(repeating: 1, count: 32)],
            ] as [String: Any], format: .binary, options: 0)
            try db.execute(sql: "INSERT INTO Z_METADATA VALUES (1, 'X', ?)", arguments: [plist])
            for construct in constructs { try? db.execute(sql: construct) }
        }
        try queue.close()
    }

    /// Every file of the folder with its bytes and mode.
    static func files(in folder: String) -> [String: String] {
        var files: [String: String] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            let path = folder + "/" + name
            let mode = (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
            files[name] = "\(mode) \(bytes(of: path).map { Data($0).base64EncodedString() } ?? "?")"
        }
        return files
    }

    /// A file's bytes, read with POSIX calls, never following a link or waiting on a FIFO.
    /// Not `FileManager.contents(atPath:)`: swift-corelibs-foundation leaks its read buffer for
    /// an empty file (LeakSanitizer, with a recipe whose `-journal` gets no bytes), and a leak
    /// in the oracle would stop the fuzzer as if momlint had leaked.
    static func bytes(of path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count >= 0 else { return nil }
            guard count > 0 else { return result }
            result.append(contentsOf: buffer[..<count])
        }
    }
}
