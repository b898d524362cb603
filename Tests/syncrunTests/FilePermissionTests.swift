import Foundation
import SyncrunTestSupport
import Testing

/// Every file syncrun creates is 0600 and every folder 0700, whatever the umask of the shell that
/// starts it (here a permissive 022).
@Suite(.serialized)
struct FilePermissionTests {
    /// Runs the built `syncrun` with `arguments` under `umask 022`.
    private func syncrunUnderUmask022(_ arguments: [String]) throws -> SyncrunProcess.Result {
        let quoted = arguments.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        return try SyncrunProcess.run(
            ["-c", "umask 022; exec '\(RepositoryPaths.syncrunExecutable.path)' " + quoted.joined(separator: " ")],
            executable: URL(fileURLWithPath: "/bin/sh")
        )
    }

    private func mode(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    /// Every file and folder under `directory`, with `directory` itself.
    private func tree(_ directory: URL) -> [String] {
        var paths = [directory.path]
        let enumerator = FileManager.default.enumerator(atPath: directory.path)
        while let next = enumerator?.nextObject() as? String {
            paths.append(directory.appendingPathComponent(next).path)
        }
        return paths
    }

    @Test func storesOrgDataExportsAndReportsArePrivateUnderAPermissiveUmask() async throws {
        try await RunProject.with { project in
            let junit = project.directory.appendingPathComponent("reports/junit.xml")
            try FileManager.default.createDirectory(
                at: junit.deletingLastPathComponent(),
                withIntermediateDirectories: true
            )
            let run = try syncrunUnderUmask022(
                [
                    "run", "--config", project.config, "--org", project.org, "--seed", project.seedPlan, "--format",
                    "json",
                    "--junit", junit.path,
                ]
            )
            #expect(run.status == 0, "\(run.stderr)")
            let export = project.directory.appendingPathComponent("export")
            let exported = try syncrunUnderUmask022([
                "org", "export", "--data", project.orgDirectory, "--output", export.path,
            ])
            #expect(exported.status == 0, "\(exported.stderr)")

            let created = tree(project.directory.appendingPathComponent(".syncrun")) + tree(export) + [junit.path]
            #expect(created.count > 5)
            for path in created {
                var isDirectory: ObjCBool = false
                _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
                #expect(try mode(path) == (isDirectory.boolValue ? 0o700 : 0o600), "\(path)")
            }
        }
    }

    @Test func anExistingStoreReadableByOthersIsMadePrivateWithANotice() async throws {
        try await RunProject.with { project in
            #expect(try project.run().status == 0)
            chmod(project.storeFile.path, 0o644)
            let run = try project.run()
            #expect(run.status == 0, "\(run.stderr)")
            #expect(try mode(project.storeFile.path) == 0o600)
            #expect(run.stderr.contains("note: made '\(project.storeFile.path)' private"), "\(run.stderr)")
        }
    }
}
