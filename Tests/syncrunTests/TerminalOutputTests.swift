import Foundation
import SyncrunTestSupport
import Testing

/// Terminals stay yours (issue 27 item 7): a name holding ESC, BEL or an OSC title sequence is
/// printed escaped by every command, in text and JSON, and `validate` warns about it.
struct TerminalOutputTests {
    /// ESC [2J (clear the screen), an OSC title sequence ended by BEL, a line feed and a C1 CSI.
    static let hostileName = #"accounts\u001b[2J\u001b]0;pwned\u0007\n\u009b31mDown"#

    private static func expectNoControls(_ text: String, _ label: String) {
        let controls = text.unicodeScalars.filter {
            ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7F...0x9F).contains($0.value)
        }
        #expect(controls.isEmpty, "\(label) printed \(controls.map { String($0.value, radix: 16) })")
    }

    @Test func namesWithControlCharactersArePrintedEscaped() async throws {
        try await RunProject.with { project in
            let syncs = project.directory.appendingPathComponent("usersyncs.json")
            let text = try String(contentsOf: syncs, encoding: .utf8)
                .replacingOccurrences(of: "\"accountsDown\"", with: "\"\(Self.hostileName)\"")
            try text.write(to: syncs, atomically: true, encoding: .utf8)
            let config = ["--config", project.config]

            let validate = try SyncrunProcess.run(["validate"] + config)
            #expect(validate.status == 0, "\(validate.stdout)")
            #expect(validate.stdout.contains("[control-character]"), "\(validate.stdout)")
            Self.expectNoControls(validate.stdout + validate.stderr, "validate")

            for format in ["text", "json"] {
                let run = try SyncrunProcess.run(
                    ["run", "--org", project.org, "--seed", project.seedPlan, "--format", format] + config
                )
                #expect(run.status == 0, "\(run.stderr)")
                Self.expectNoControls(run.stdout + run.stderr, "run --format \(format)")
                let status = try SyncrunProcess.run(["status", "--format", format] + config)
                #expect(status.status == 0, "\(status.stderr)")
                Self.expectNoControls(status.stdout + status.stderr, "status --format \(format)")
                if format == "text" {
                    #expect(status.stdout.contains(#"accounts\u001b[2J\u001b]0;pwned\u0007\n\u009b31mDown"#))
                    #expect(run.stdout.contains(#"accounts\u001b[2J"#), "\(run.stdout)")
                }
            }
            let plan = try SyncrunProcess.run(["plan"] + config)
            #expect(plan.status == 0, "\(plan.stderr)")
            #expect(plan.stdout.contains(#"accounts\u001b[2J"#), "\(plan.stdout)")
            Self.expectNoControls(plan.stdout + plan.stderr, "plan")
            let missing = try SyncrunProcess.run(["status", "no\u{1B}]0;title\u{07}such"] + config)
            #expect(missing.status != 0)
            Self.expectNoControls(missing.stdout + missing.stderr, "status of an unknown name")
        }
    }
}
