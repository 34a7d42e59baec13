import Foundation

extension ExportedModel {
    /// The export as JSON: keys sorted, so the same model always gives the same bytes and a
    /// committed export diffs cleanly. Pretty-printed for people, compact for the protocol.
    public func jsonData(pretty: Bool = true) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty
            ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            : [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
