/// The bounds on reading a store someone else made (`docs/security.md`, "Stores"). Crossing one
/// ends the read with one line naming the bound; none is crossed by a store an app wrote in
/// the ordinary way.
public struct StoreReadLimits: Sendable, Hashable {
    /// Seconds SQLite may work for one read (every statement of it together), enforced by a
    /// progress handler: opening and describing the file, one operation of a read-only store,
    /// each thousand objects of a dump. A real store's `which-version` takes milliseconds.
    public var timeLimit: Double = 120
    /// The longest text or BLOB SQLite may make, stored or computed (`SQLITE_LIMIT_LENGTH`).
    public var maximumValueBytes = 64 << 20
    /// The longest SQL statement SQLite may compile, the file's own `CREATE` statements
    /// included (`SQLITE_LIMIT_SQL_LENGTH`). momlint's longest is a few kilobytes per hundred
    /// columns.
    public var maximumSQLBytes = 1 << 20
    /// The largest `-wal` copied for reading: a `-wal` holds the changes since the last
    /// checkpoint (SQLite checkpoints at 1,000 pages, about 4 MB, by default).
    public var maximumWALBytes = 256 << 20
    /// The largest store file copied beside its `-wal` (a store without a `-wal` holding
    /// data is read in place, whatever its size).
    public var maximumCopiedStoreBytes = 2 << 30
    /// The largest metadata property list (`Z_METADATA.Z_PLIST`): a real one is a few kilobytes.
    public var maximumMetadataBytes = 4 << 20
    /// Objects in the metadata property list, counting a shared object each time it is used,
    /// and its nesting depth.
    public var maximumMetadataObjects = 100_000
    public var maximumMetadataDepth = 32
    /// Rows of `sqlite_schema`: tables, indexes, triggers and views together.
    public var maximumSchemaObjects = 100_000

    public init() {}
}
