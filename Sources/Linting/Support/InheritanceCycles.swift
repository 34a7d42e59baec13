import DataModel

extension LintedModel {
    /// Each inheritance cycle once, as entity names in parent order. Every entity is walked once, so
    /// this stays linear even for a 10,000-deep hierarchy.
    var inheritanceCycles: [[String]] {
        // Walked by entity index: hashing every name several times cost most of this rule on a
        // large model. Entities sharing a name are one node, the first declared, as
        // `entity(named:)` and `parent(of:)` find them.
        enum State: UInt8 { case unvisited, walking, done }
        let model = self.model
        let count = model.entities.count
        var state = [State](repeating: .unvisited, count: count)
        var cycles: [[String]] = []
        var path: [Int] = []
        for index in 0..<count {
            guard let start = model.entityIndex(named: model.nameOfEntity(at: index)), state[start] == .unvisited else { continue }
            path.removeAll(keepingCapacity: true)
            var current: Int? = start
            while let next = current {
                if state[next] != .unvisited {
                    if state[next] == .walking, let at = path.firstIndex(of: next) {
                        cycles.append(path[at...].map(model.nameOfEntity(at:)))
                    }
                    break
                }
                state[next] = .walking
                path.append(next)
                current = model.parentIndex(ofEntityAt: next)
            }
            for node in path { state[node] = .done }
        }
        return cycles
    }
}
