import DataModel

/// A data set whose root, once deleted, takes every other object with it by Cascade rules.
public enum CascadeShape: Hashable, Sendable, CustomStringConvertible {
    /// One `Root` whose to-many `children` (Cascade) holds this many `Child` objects.
    case fanOut(children: Int)
    /// A chain of this many `Node` objects, each cascading to its `next`.
    case chain(length: Int)

    /// The issue's data sets: a root cascading to 100,000 objects, and a 1,000,000-object chain.
    public static let issueFanOut = CascadeShape.fanOut(children: 100_000)
    public static let issueChain = CascadeShape.chain(length: 1_000_000)

    /// How many objects the data set holds (all of them go with the root).
    public var objectCount: Int {
        switch self {
        case .fanOut(let children): children + 1
        case .chain(let length): length
        }
    }

    public var description: String {
        switch self {
        case .fanOut(let children): "a root cascading to \(Self.grouped(children)) children"
        case .chain(let length): "a chain of \(Self.grouped(length)) nodes"
        }
    }

    /// `1000000` as `1,000,000`, whatever the locale, so reports do not change with it.
    static func grouped(_ number: Int) -> String {
        var digits = String(number)
        var position = digits.count - 3
        while position > 0 {
            digits.insert(",", at: digits.index(digits.startIndex, offsetBy: position))
            position -= 3
        }
        return digits
    }

    /// The model both shapes live in, loaded by momlint's own parser.
    public static func model() throws -> Model {
        try ModelLoader().model(fromContents: Array(modelContents.utf8), file: "Cascade.xcdatamodel/contents")
    }

    static let modelContents = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Root">
                <relationship name="children" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Child" inverseName="root" inverseEntity="Child"/>
            </entity>
            <entity name="Child">
                <attribute name="index" optional="YES" attributeType="Integer 64"/>
                <relationship name="root" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Root" inverseName="children" inverseEntity="Root"/>
            </entity>
            <entity name="Node">
                <attribute name="index" optional="YES" attributeType="Integer 64"/>
                <relationship name="next" optional="YES" maxCount="1" deletionRule="Cascade" destinationEntity="Node" inverseName="previous" inverseEntity="Node"/>
                <relationship name="previous" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Node" inverseName="next" inverseEntity="Node"/>
            </entity>
        </model>
        """
}
