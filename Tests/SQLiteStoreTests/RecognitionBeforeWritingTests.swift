import Foundation
import Testing
@testable import SQLiteStore

/// Opening a file to write first recognises it through a view that cannot write. A read-write
/// SQLite connection, even one that only reads, creates `-wal` and `-shm` beside a WAL file and
/// deletes them on close: a listing before and after sees nothing, so a folder watch
/// (inotify) is the witness.
@Suite struct RecognitionBeforeWritingTests {
    #if canImport(Glibc)
    static let watchable = FolderWatch.isAvailable
    #else
    static let watchable = false
    #endif

    @Test(.enabled(if: watchable, "inotify(7) is not available here"))
    func refusingToWriteCreatesNothingBesideTheFileEvenForAMoment() throws {
        #if canImport(Glibc)
        let scratch = try ScratchDirectory()
        // A WAL-mode Core Data store closed cleanly: no -wal, no -shm.
        let path = try CoreDataStoreRecognitionTests.coreDataLikeStore(in: scratch, persistentHistory: false)
        #expect(try ForeignFileTests.files(in: scratch).keys.sorted() == ["Authors.sqlite"])
        guard case .sqlite(let header) = try SQLiteFileHeader.inspect(path) else { throw SQLiteStoreError(.incompatibleFile, "no header") }
        #expect(header.isWAL)
        let model = try TestModels.model(CoreDataStoreRecognitionTests.model)
        let other = try TestModels.model(#"<entity name="Other"><attribute name="x" optional="YES" attributeType="String"/></entity>"#)

        let watch = try FolderWatch(scratch.url.path)
        // Not asked to write into a Core Data store; asked, but with another model.
        #expect(throws: SQLiteStoreError.self) { try SQLiteObjectStore(path: path, model: model, access: .readWrite) }
        #expect(throws: SQLiteStoreError.self) { try SQLiteObjectStore(path: path, model: other, access: .readWriteIncludingCoreDataStores) }
        #expect(throws: SQLiteStoreError.self) { try SQLiteObjectStore.migrateStore(at: path, from: other, to: other) }
        #expect(watch.events() == [])

        // The witness sees what a read-write connection does: here, once writing is allowed.
        let store = try SQLiteObjectStore(path: path, model: model, access: .readWriteIncludingCoreDataStores)
        _ = try store.fetch("Author")
        try store.close()
        #expect(watch.events().contains("CREATE Authors.sqlite-shm"))
        #endif
    }
}
