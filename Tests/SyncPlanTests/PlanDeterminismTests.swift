import SyncConfig
import SyncPlan
import Testing

/// Same input, same bytes: the plan does not depend on hash order or on the order of `dependsOn`
/// lists.
struct PlanDeterminismTests {
    typealias C = PlanTestConfigs

    private static let names = ["a", "b", "c", "d"]

    /// Every ordering of `elements`.
    private static func permutations<T>(_ elements: [T]) -> [[T]] {
        guard elements.count > 1 else { return [elements] }
        return elements.indices.flatMap { index -> [[T]] in
            var rest = elements
            let first = rest.remove(at: index)
            return permutations(rest).map { [first] + $0 }
        }
    }

    private func config(dependsOn: [String]) -> [SyncDefinition] {
        [
            C.down("a", soup: "s", cleanGhosts: true),
            C.up("b", soup: "s"),
            C.down("c", soup: "t"),
            C.parentChildrenDown("d", parent: "t", children: "u"),
            C.down("target", soup: "u", dependsOn: dependsOn),
        ]
    }

    @Test func jsonIsByteIdenticalAcrossRuns() throws {
        let first = try C.plan(config(dependsOn: Self.names)).rendered(as: .json)
        for _ in 0..<20 {
            #expect(try C.plan(config(dependsOn: Self.names)).rendered(as: .json) == first)
        }
    }

    @Test func dependsOnOrderDoesNotChangeThePlan() throws {
        let expected = try C.plan(config(dependsOn: Self.names))
        for ordering in Self.permutations(Self.names) {
            let plan = try C.plan(config(dependsOn: ordering))
            #expect(plan == expected, "dependsOn order \(ordering)")
            for format in PlanFormat.allCases {
                #expect(plan.rendered(as: format) == expected.rendered(as: format))
            }
        }
    }

    @Test func cycleMessageDoesNotDependOnDependsOnOrder() throws {
        let expected = try #require(throws: PlanError.self) {
            try C.plan([
                C.down("x", soup: "s1", dependsOn: ["y", "z"]), C.down("y", soup: "s2", dependsOn: ["x"]),
                C.down("z", soup: "s3"),
            ])
        }
        let reordered = try #require(throws: PlanError.self) {
            try C.plan([
                C.down("x", soup: "s1", dependsOn: ["z", "y"]), C.down("y", soup: "s2", dependsOn: ["x"]),
                C.down("z", soup: "s3"),
            ])
        }
        #expect(reordered == expected)
    }

    @Test func stepsAlwaysFollowTheirDependencies() throws {
        for ordering in Self.permutations(Self.names) {
            let plan = try C.plan(config(dependsOn: ordering))
            for (index, step) in plan.steps.enumerated() {
                for dependency in step.dependsOn {
                    let position = try #require(plan.position(of: dependency))
                    #expect(position < index)
                }
            }
        }
    }
}
