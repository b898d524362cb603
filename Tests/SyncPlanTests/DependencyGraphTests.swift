import Testing

@testable import SyncPlan

/// The graph under the planner: smallest-ready-first topological order and cycle finding.
struct DependencyGraphTests {
    @Test func ordersDependenciesFirstAndSmallestFirst() {
        var graph = DependencyGraph(count: 5)
        graph.add(0, waitsFor: 4)
        graph.add(2, waitsFor: 3)
        #expect(graph.order() == .sorted([1, 3, 2, 4, 0]))
    }

    @Test func repeatedEdgesAreIgnored() {
        var graph = DependencyGraph(count: 2)
        let added = graph.add(1, waitsFor: 0)
        let addedAgain = graph.add(1, waitsFor: 0)
        #expect(added)
        #expect(!addedAgain)
        #expect(graph.dependencies[1] == [0])
        #expect(graph.order() == .sorted([0, 1]))
    }

    @Test func findsACycleStartingAtItsSmallestNode() {
        var graph = DependencyGraph(count: 6)
        graph.add(0, waitsFor: 5)  // 0 is not on the cycle but waits for it
        graph.add(5, waitsFor: 3)
        graph.add(3, waitsFor: 4)
        graph.add(4, waitsFor: 5)
        graph.add(1, waitsFor: 2)
        #expect(graph.order() == .cycle([3, 4, 5]))
    }

    @Test func selfLoopIsACycle() {
        var graph = DependencyGraph(count: 2)
        graph.add(1, waitsFor: 1)
        #expect(graph.order() == .cycle([1]))
    }

    @Test func largeChainSorts() {
        var graph = DependencyGraph(count: 2000)
        for node in 0..<1999 { graph.add(node, waitsFor: node + 1) }
        #expect(graph.order() == .sorted(Array((0..<2000).reversed())))
    }
}
