/// The pieces joined into one string, made at its final size and filled by copying each
/// piece's bytes. A diff of two large versions writes a `details` line for each of hundreds of
/// thousands of added and removed properties; interpolation, or appending piece by piece, grows
/// each string and goes through the runtime's general append for every piece.
func concatenated(_ pieces: String...) -> String {
    var byteCount = 0
    for piece in pieces { byteCount += piece.utf8.count }
    return String(unsafeUninitializedCapacity: byteCount) { buffer in
        var end = 0
        for var piece in pieces {
            piece.withUTF8 { bytes in
                guard let source = bytes.baseAddress else { return }
                (buffer.baseAddress! + end).initialize(from: source, count: bytes.count)
                end += bytes.count
            }
        }
        return end
    }
}
