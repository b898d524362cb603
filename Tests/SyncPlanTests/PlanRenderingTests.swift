import Foundation
import SyncConfig
import SyncPlan
import Testing

/// The four output formats on small plans; the example project's output is pinned by snapshot
/// files in `PlanSnapshotTests`.
struct PlanRenderingTests {
    typealias C = PlanTestConfigs

    private func smallPlan() throws -> SyncPlan {
        try C.plan([C.up("up", soup: "s"), C.down("down", soup: "s", cleanGhosts: true)])
    }

    @Test func textListsStepsWithWhatTheyWaitFor() throws {
        #expect(
            try smallPlan().rendered(as: .text) == """
                Plan: 3 steps for 2 syncs

                1. sync up up
                   soup 's', collection target
                2. sync down down
                   soup 's', soql target, incremental resync
                   api: REST below 10000 records, Bulk API 2.0 at or above
                   waits for 1 (sync up up): sync ups of soup 's' run before its sync downs
                3. clean ghosts down
                   soup 's', soql target
                   waits for 2 (sync down down): ghosts are cleaned right after sync down 'down'

                """
        )
    }

    @Test func jsonHasAFixedShape() throws {
        let plan = try C.plan([C.up("up", soup: "s"), C.down("down", soup: "s")])
        #expect(
            plan.rendered(as: .json) == """
                {
                  "formatVersion": 1,
                  "steps": [
                    {
                      "id": "syncUp:up",
                      "kind": "syncUp",
                      "syncName": "up",
                      "soupName": "s",
                      "soups": ["s"],
                      "target": "collection",
                      "dependsOn": [],
                      "reasons": []
                    },
                    {
                      "id": "syncDown:down",
                      "kind": "syncDown",
                      "syncName": "down",
                      "soupName": "s",
                      "soups": ["s"],
                      "target": "soql",
                      "resync": "incremental",
                      "api": "REST below 10000 records, Bulk API 2.0 at or above",
                      "dependsOn": ["syncUp:up"],
                      "reasons": [
                        {
                          "step": "syncUp:up",
                          "rule": "upBeforeDown",
                          "detail": "sync ups of soup 's' run before its sync downs"
                        }
                      ]
                    }
                  ]
                }

                """
        )
    }

    @Test func jsonDecodesBackToTheSamePlan() throws {
        let plan = try C.plan([
            C.up("weird \"name\"\\ with\ttab", soup: "sœup/1"),
            C.down("down", soup: "sœup/1", dependsOn: ["weird \"name\"\\ with\ttab"], cleanGhosts: true),
        ])
        let decoded = try JSONDecoder().decode(SyncPlan.self, from: Data(plan.rendered(as: .json).utf8))
        #expect(decoded == plan)
    }

    @Test func emptyPlanInEveryFormat() throws {
        let plan = try C.plan([])
        #expect(plan.rendered(as: .text) == "Plan: no steps (no syncs to run)\n")
        #expect(plan.rendered(as: .json) == "{\n  \"formatVersion\": 1,\n  \"steps\": []\n}\n")
        #expect(plan.rendered(as: .mermaid) == "flowchart TD\n")
        #expect(plan.rendered(as: .dot).hasPrefix("digraph plan {\n"))
    }

    @Test func mermaidShapesAndLabelsEdges() throws {
        #expect(
            try smallPlan().rendered(as: .mermaid) == """
                flowchart TD
                    s1(["1. sync up up<br/>soup s, collection"])
                    s2["2. sync down down<br/>soup s, soql"]
                    s3{{"3. clean ghosts down<br/>soup s, soql"}}
                    s1 -->|up before down| s2
                    s2 -->|after sync down| s3

                """
        )
    }

    @Test func dotDrawsTheSameGraph() throws {
        #expect(
            try smallPlan().rendered(as: .dot) == """
                digraph plan {
                    rankdir=TB;
                    node [shape=box, fontname="Helvetica"];
                    edge [fontname="Helvetica", fontsize=10];
                    s1 [label="1. sync up up\\nsoup s, collection", style=rounded];
                    s2 [label="2. sync down down\\nsoup s, soql"];
                    s3 [label="3. clean ghosts down\\nsoup s, soql", shape=hexagon];
                    s1 -> s2 [label="up before down"];
                    s2 -> s3 [label="after sync down"];
                }

                """
        )
    }

    @Test func diagramsEscapeNames() throws {
        let plan = try C.plan([C.down("a\"b<c>|d\\e", soup: "s")])
        #expect(
            plan.rendered(as: .mermaid).contains("s1[\"1. sync down a#quot;b#lt;c#gt;#124;d\\e<br/>soup s, soql\"]")
        )
        #expect(plan.rendered(as: .dot).contains("s1 [label=\"1. sync down a\\\"b<c>|d\\\\e\\nsoup s, soql\"];"))
    }

    @Test func edgeWithTwoRulesShowsBothLabels() throws {
        let plan = try C.plan([C.up("u", soup: "s"), C.down("d", soup: "s", dependsOn: ["u"])])
        #expect(plan.rendered(as: .mermaid).contains("s1 -->|up before down, dependsOn| s2"))
        #expect(plan.rendered(as: .dot).contains("s1 -> s2 [label=\"up before down, dependsOn\"];"))
    }
}
