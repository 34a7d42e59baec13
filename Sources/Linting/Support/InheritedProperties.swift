import DataModel

/// For every entity, what it inherits: how many properties its ancestors declare, and for each of
/// its own properties the nearest ancestor that declares the same name.
///
/// Walking each entity's ancestors is quadratic in the depth of a hierarchy (docs/benchmarks.md,
/// "Deep hierarchies"). This table is built in one walk down each inheritance tree instead: going
/// down, an entity's names are pushed on a stack per name (so the top is the nearest declarer) and
/// its count is added to a running total; coming back up, they are popped. Every entity and
/// property is visited a constant number of times, whatever the depth.
///
/// Entities the walk from the roots never reaches — those in an inheritance cycle or below one —
/// and an entity whose chain passes another entity of its own name (the model's ancestor walk
/// stops there) are walked one by one as before; both are errors other rules report.
struct InheritedProperties: Sendable {
    /// Properties each entity inherits, counted as declared (a name declared twice counts twice).
    let inheritedCounts: [Int]
    /// Entity index → (own property offset → index of the nearest ancestor declaring that name);
    /// only entities that redeclare something.
    private let declarers: [Int: [Int: Int]]
    /// Name look-ups, stack pushes and pops, and ancestor steps taken to build the table: linear
    /// in entities plus properties for a model without cycles. Tests read it to prove linearity
    /// without timing anything.
    let steps: Int

    /// The nearest ancestor of the entity at `entityIndex` declaring the name of its own property
    /// at `offset`, if any.
    func nearestDeclarer(ofOwnPropertyAt offset: Int, inEntityAt entityIndex: Int) -> Int? {
        declarers[entityIndex]?[offset]
    }

    init(model: Model) {
        let count = model.entities.count
        var children = [[Int]](repeating: [], count: count)
        var roots: [Int] = []
        for entityIndex in 0..<count {
            if let parent = model.parentIndex(ofEntityAt: entityIndex) {
                children[parent].append(entityIndex)
            } else {
                roots.append(entityIndex)
            }
        }
        var inheritedCounts = [Int](repeating: 0, count: count)
        var declarers: [Int: [Int: Int]] = [:]
        var steps = 0
        var visited = [Bool](repeating: false, count: count)
        var onPath = [Bool](repeating: false, count: count)
        var walkedAlone: [Int] = []
        // The entities on the current path declaring each name, as one stack of declarations
        // for all names: `nearestDeclaration[name]` is where the nearest one sits in
        // `declarations`, and each declaration remembers the one of the same name it hides.
        // One hash per push, pop or look-up, and no array per name.
        var declarations: [(entity: Int, hidden: Int?)] = []
        var nearestDeclaration: [String: Int] = [:]
        var path: [(entity: Int, nextChild: Int)] = []

        func enter(_ entityIndex: Int, inheriting inherited: Int) {
            visited[entityIndex] = true
            inheritedCounts[entityIndex] = inherited
            let names = model.ownPropertyNames(ofEntityAt: entityIndex)
            let namesake = model.namesakeIndex(ofEntityAt: entityIndex)
            if namesake != entityIndex, onPath[namesake] {
                walkedAlone.append(entityIndex)
            } else if !path.isEmpty {  // a root has no ancestor to take a name from
                var found: [Int: Int] = [:]
                for (offset, name) in names.enumerated() {
                    steps += 1
                    if let nearest = nearestDeclaration[name] { found[offset] = declarations[nearest].entity }
                }
                if !found.isEmpty { declarers[entityIndex] = found }
            }
            // Only descendants read an entity's names off the stacks, so a leaf (most entities)
            // pushes none: hashing every name of the model twice was most of this table's cost.
            if !children[entityIndex].isEmpty {
                for name in names {
                    steps += 1
                    let hidden = nearestDeclaration.updateValue(declarations.count, forKey: name)
                    declarations.append((entityIndex, hidden))
                }
            }
            onPath[entityIndex] = true
            path.append((entityIndex, 0))
        }

        for root in roots {
            enter(root, inheriting: 0)
            while let (entityIndex, nextChild) = path.last {
                if nextChild < children[entityIndex].count {
                    path[path.count - 1].nextChild += 1
                    let inherited = inheritedCounts[entityIndex] + model.ownPropertyNames(ofEntityAt: entityIndex).count
                    enter(children[entityIndex][nextChild], inheriting: inherited)
                } else {
                    // The entity's names were pushed in order, so they come off the top in reverse.
                    for name in model.ownPropertyNames(ofEntityAt: entityIndex).reversed() where !children[entityIndex].isEmpty {
                        steps += 1
                        nearestDeclaration[name] = declarations.removeLast().hidden
                    }
                    onPath[entityIndex] = false
                    path.removeLast()
                }
            }
        }

        // Cycles and namesakes: each entity's own walk, as the model's ancestor walk defines it.
        walkedAlone += (0..<count).filter { !visited[$0] }
        for entityIndex in walkedAlone {
            let ancestors = model.ancestorIndexes(ofEntityAt: entityIndex)
            steps += ancestors.count
            inheritedCounts[entityIndex] = ancestors.reduce(0) { $0 + model.ownPropertyNames(ofEntityAt: $1).count }
            var found: [Int: Int] = [:]
            for (offset, name) in model.ownPropertyNames(ofEntityAt: entityIndex).enumerated() {
                steps += ancestors.count
                if let nearest = ancestors.first(where: { model.ownPropertyNames(ofEntityAt: $0).contains(name) }) {
                    found[offset] = nearest
                }
            }
            declarers[entityIndex] = found.isEmpty ? nil : found
        }
        self.inheritedCounts = inheritedCounts
        self.declarers = declarers
        self.steps = steps
    }
}
