import Conformance
import GRDB

/// Before a save writes into a store Core Data wrote, checks that every value it writes reads
/// back as set: a value the column cannot hold as it is (SQLite stores a NaN as NULL), or a
/// value for an attribute that allows external storage (whose column Core Data encodes in a
/// form momlint does not write), makes the save fail before anything is written.
///
/// Only the columns a save writes are checked. An update writes just the attributes whose
/// value changed (`SaveWriter.updateRow`), so a value momlint cannot decode, in a column the
/// save does not set, stays in the file untouched; a delete writes no value at all, so it is
/// never refused for what the row holds. Relationship columns hold keys, which always fit.
struct RoundTripCheck {
    let context: ObjectContext
    let path: String

    private var schema: StoreSchema { context.schema }

    func verify() throws {
        for (id, state) in context.objects.sorted(by: { $0.key < $1.key }) where state.isLive && (state.isInserted || state.isChanged) {
            let entity = schema.entities[state.entity]
            for (slot, attribute) in entity.attributes.enumerated() where attribute.column != nil {
                let value = state.attributes[slot]
                // An update leaves an unchanged column alone; an insert writes every column.
                guard state.isInserted || value != state.savedAttributes[slot] else { continue }
                // Core Data does not store such a column's value as the bytes themselves: by
                // what its framework shows, a marker byte comes first and a large value is a
                // reference to a file beside the store (docs/sqlite-store.md, "External
                // storage"; INFERRED, undocumented). momlint keeps those bytes as they are but
                // does not write its own there, where Core Data would misread them; an insert
                // may leave the column null.
                if attribute.attribute.allowsExternalBinaryDataStorage, !(state.isInserted && value == .null) {
                    throw SQLiteStoreError(.invalidRequest,
                                           "refusing to write '\(path)': '\(entity.name).\(attribute.name)' of object \(id) allows external storage, whose encoding in a store Core Data wrote is not documented; momlint leaves such a value as Core Data wrote it")
                }
                guard StoredValue.attributeValue(StoredValue.databaseValue(value), as: attribute.type) != value else { continue }
                throw SQLiteStoreError(.invalidRequest,
                                       "refusing to write '\(path)': '\(entity.name).\(attribute.name)' of object \(id) is set to \(value), which its column cannot hold as set")
            }
        }
    }
}
