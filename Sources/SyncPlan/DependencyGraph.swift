/// A directed graph over nodes `0..<count` where an edge says "this node waits for that one",
/// ordered topologically with the smallest available node first.
///
/// Node numbers are the tie-breaker: the planner numbers steps in config order, so among the
/// steps that are ready at any point the one declared first runs first, and the same input
/// always gives the same order.
struct DependencyGraph: Sendable {
    /// The outcome of ``order()``.
    enum Ordering: Equatable {
        /// Every node, dependencies first.
        case sorted([Int])
        /// Nodes on one cycle; each waits for the next and the last waits for the first. Starts
        /// at the smallest node of the cycle.
        case cycle([Int])
    }

    /// Number of nodes.
    let count: Int
    /// For each node, the nodes it waits for, in the order the edges were added.
    private(set) var dependencies: [[Int]]
    /// For each node, the nodes waiting for it.
    private var dependents: [[Int]]

    /// Creates a graph of `count` nodes and no edges.
    init(count: Int) {
        self.count = count
        dependencies = Array(repeating: [], count: count)
        dependents = Array(repeating: [], count: count)
    }

    /// Makes `node` wait for `dependency`; adding the same edge twice has no effect.
    /// - Returns: whether the edge is new.
    @discardableResult
    mutating func add(_ node: Int, waitsFor dependency: Int) -> Bool {
        guard !dependencies[node].contains(dependency) else { return false }
        dependencies[node].append(dependency)
        dependents[dependency].append(node)
        return true
    }

    /// Orders the nodes so every node comes after the nodes it waits for, choosing the smallest
    /// ready node at each point (Kahn's algorithm with a min-heap), or finds a cycle.
    func order() -> Ordering {
        var waitingCount = dependencies.map(\.count)
        var ready = MinHeap(waitingCount.indices.filter { waitingCount[$0] == 0 })
        var sorted: [Int] = []
        sorted.reserveCapacity(count)
        while let node = ready.popMin() {
            sorted.append(node)
            for dependent in dependents[node] {
                waitingCount[dependent] -= 1
                if waitingCount[dependent] == 0 {
                    ready.insert(dependent)
                }
            }
        }
        if sorted.count == count {
            return .sorted(sorted)
        }
        return .cycle(findCycle(among: waitingCount.map { $0 > 0 }))
    }

    /// A cycle among the unsorted nodes. Every unsorted node waits for at least one other
    /// unsorted node, so walking "waits for" edges (smallest node first) must come back to a node
    /// already seen; the loop from there is a cycle.
    private func findCycle(among isUnsorted: [Bool]) -> [Int] {
        guard var node = isUnsorted.firstIndex(of: true) else { return [] }
        var path: [Int] = []
        var position: [Int: Int] = [:]
        while position[node] == nil {
            position[node] = path.count
            path.append(node)
            guard let next = dependencies[node].filter({ isUnsorted[$0] }).min() else { return path }
            node = next
        }
        let cycle = Array(path[(position[node] ?? 0)...])
        guard let start = cycle.indices.min(by: { cycle[$0] < cycle[$1] }) else { return cycle }
        return Array(cycle[start...] + cycle[..<start])
    }
}

/// A binary min-heap of node numbers.
private struct MinHeap {
    private var storage: [Int] = []

    init(_ elements: [Int]) {
        for element in elements { insert(element) }
    }

    mutating func insert(_ element: Int) {
        storage.append(element)
        var child = storage.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard storage[child] < storage[parent] else { break }
            storage.swapAt(child, parent)
            child = parent
        }
    }

    mutating func popMin() -> Int? {
        guard let first = storage.first else { return nil }
        let last = storage.removeLast()
        guard !storage.isEmpty else { return first }
        storage[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < storage.count, storage[left] < storage[smallest] { smallest = left }
            if right < storage.count, storage[right] < storage[smallest] { smallest = right }
            guard smallest != parent else { break }
            storage.swapAt(parent, smallest)
            parent = smallest
        }
        return first
    }
}
