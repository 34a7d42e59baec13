/// Heap storage for a value type's fields, shared by its copies until one of them changes.
///
/// Entities, relationships and attributes carry twenty-odd fields each, most of them strings;
/// copying such a struct retains every one of them. Rules pass these values around freely, so
/// the model keeps their fields in one box and a copy costs a single retain. Mutation goes
/// through `isKnownUniquelyReferenced` and copies the box first when it is shared, so the
/// types keep value semantics.
@usableFromInline
final class CopyOnWriteBox<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `value` is only written through a uniquely referenced box (see the
    // `_modify` accessors), so no two threads ever see it change. For the same reason no
    // access can overlap a write, and the runtime's exclusivity check, paid on every field
    // read of every entity, relationship and attribute, is turned off.
    @exclusivity(unchecked) @usableFromInline var value: Value

    @usableFromInline
    init(_ value: Value) {
        self.value = value
    }
}

/// Boxes compare and hash by their fields, so a type holding one gets value equality from
/// synthesized `Hashable`; two copies sharing a box are equal without comparing anything.
extension CopyOnWriteBox: Equatable where Value: Equatable {
    @usableFromInline
    static func == (lhs: CopyOnWriteBox, rhs: CopyOnWriteBox) -> Bool {
        lhs === rhs || lhs.value == rhs.value
    }
}

extension CopyOnWriteBox: Hashable where Value: Hashable {
    @usableFromInline
    func hash(into hasher: inout Hasher) {
        hasher.combine(value)
    }
}
