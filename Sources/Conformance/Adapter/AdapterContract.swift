/// The version of `docs/adapter-contract.md` this library implements. A minor bump adds what an
/// existing adapter may ignore; a major bump changes or removes something.
public enum AdapterContract {
    public static let version = "1.4"
    public static let majorVersion = 1
    public static let minorVersion = 4
}
