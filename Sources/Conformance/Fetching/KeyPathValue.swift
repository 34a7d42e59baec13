/// Reading a fetch request's key paths (contract 1.4, §4.11) over any store's objects, so that
/// every Swift store follows them alike: each step but the last a to-one relationship, the last
/// an attribute, or a to-one compared with `nil`. The loader has checked every key path against
/// the model (`ScenarioParser`); a store says what one property of one of its objects holds.
public enum KeyPathValue {
    /// One property of an object, as a store reads it.
    public enum Property<Object> {
        /// An attribute's value.
        case attribute(AttributeValue)
        /// A to-one relationship's destination, nil when it is empty.
        case toOne(Object?)
    }

    /// The value at `path` of `object`: an attribute's value; through a to-one, the
    /// destination's; a to-one at the end reads as the destination's name (null without one);
    /// an empty to-one on the way, an attribute before the end or an object the store does not
    /// have gives null.
    ///
    /// `property(object, key)` reads one property, nil when the store has no such object (it
    /// throws for a key the object's entity lacks); `name(object)` is a destination's name.
    public static func read<Object, Failure: Error>(_ path: [String], of object: Object,
                                                    property: (Object, String) throws(Failure) -> Property<Object>?,
                                                    name: (Object) throws(Failure) -> String?) throws(Failure) -> AttributeValue {
        var current = object
        for (index, key) in path.enumerated() {
            let isLast = index == path.count - 1
            switch try property(current, key) {
            case nil, .toOne(nil)?:
                return .null
            case .attribute(let value)?:
                return isLast ? value : .null
            case .toOne(let next?)?:
                if isLast { return try name(next).map(AttributeValue.string) ?? .null }
                current = next
            }
        }
        return .null
    }
}
