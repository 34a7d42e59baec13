import Conformance
import DataModel
import Foundation
import SQLiteStore

// A test helper for Tests/SQLiteCrashSafetyTests, which kills it with SIGKILL part-way
// through: one large save that replaces a whole generation of a ledger, or one migration.
//
//   sqlite-crash-child MODEL STORE GENERATION COUNT
//   sqlite-crash-child migrate FROM-MODEL TO-MODEL STORE
//
// The first deletes the ledger in STORE (its entries go by the Cascade rule), inserts a new
// ledger of GENERATION with COUNT entries, and saves it all at once. Prints "saving" just
// before the save and "saved" after it, unbuffered, so the parent knows where the child is.
// The second migrates STORE, saved with FROM-MODEL, in place to TO-MODEL, printing
// "migrating" and "migrated".

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("sqlite-crash-child: \(message)\n".utf8))
    exit(2)
}

func loadModel(_ path: String) -> Model {
    let loaded = ModelLoader().load(paths: [path])
    guard let model = loaded.models.first else { fail("cannot load \(path): \(loaded.failures)") }
    return model
}

let arguments = CommandLine.arguments.dropFirst()
if arguments.first == "migrate" {
    guard arguments.count == 4 else { fail("usage: sqlite-crash-child migrate FROM-MODEL TO-MODEL STORE") }
    let values = Array(arguments)
    let source = loadModel(values[1]), destination = loadModel(values[2])
    FileHandle.standardOutput.write(Data("migrating\n".utf8))
    do {
        try SQLiteObjectStore.migrateStore(at: values[3], from: source, to: destination)
    } catch {
        fail("\(error)")
    }
    FileHandle.standardOutput.write(Data("migrated\n".utf8))
    exit(0)
}
guard arguments.count == 4, let generation = Int64(arguments[arguments.startIndex + 2]),
      let count = Int(arguments[arguments.startIndex + 3]) else {
    fail("usage: sqlite-crash-child MODEL STORE GENERATION COUNT")
}
let modelPath = arguments[arguments.startIndex], storePath = arguments[arguments.startIndex + 1]

do {
    let model = loadModel(modelPath)
    let store = try SQLiteObjectStore(path: storePath, model: model)
    for ledger in try store.fetch("Ledger") { try store.delete(ledger) }
    let ledger = try store.insert("Ledger", values: ["generation": .integer(generation)])
    // About 200 bytes an entry, so a save of a few thousand entries spills pages to the WAL
    // before it commits.
    let filler = String(repeating: "g\(generation) ", count: 50)
    for serial in 0..<count {
        let entry = try store.insert("Entry", values: [
            "serial": .integer(Int64(serial)), "generation": .integer(generation), "payload": .string(filler),
        ])
        try store.link(entry, "ledger", to: ledger)
    }
    FileHandle.standardOutput.write(Data("saving\n".utf8))
    try store.save()
    FileHandle.standardOutput.write(Data("saved\n".utf8))
    try store.close()
} catch {
    fail("\(error)")
}
