import Foundation
import OrgAccess
import SyncConfig

/// The project file of the config directory (`syncrun.yaml` / `syncrun.json`), loaded and valid.
struct ProjectContext {
    /// The project file.
    let project: ProjectFile

    /// Loads the project file of `directory`, if it has one; its warnings go to standard error.
    ///
    /// - Throws: ``CLIError`` (failure: a config error) with the file's errors (each printed with its position).
    static func load(configDirectory directory: String) throws -> ProjectContext? {
        guard let url = ProjectFile.locate(in: URL(fileURLWithPath: directory, isDirectory: true)) else { return nil }
        let loaded: LoadedProjectFile
        do {
            loaded = try ConfigLoader().loadProjectFile(url)
        } catch let error as SyncConfigError {
            throw CLIError(error.message)
        }
        for diagnostic in loaded.diagnostics { StandardStreams.writeError(DiagnosticText.plain(diagnostic) + "\n") }
        guard let project = loaded.project else {
            let count = loaded.diagnostics.count { $0.isError }
            let errors = count == 1 ? "1 error; fix it" : "\(count) errors; fix them"
            throw CLIError("the project file '\(url.path)' has \(errors) and run again")
        }
        return ProjectContext(project: project)
    }

    /// The project file's `store`, when the config directory has a valid project file that sets
    /// it (an invalid file is reported by the commands that resolve the org).
    static func storePath(configDirectory directory: String) -> String? {
        guard let url = ProjectFile.locate(in: URL(fileURLWithPath: directory, isDirectory: true)) else { return nil }
        return (try? ConfigLoader().loadProjectFile(url))?.project?.store
    }

    /// A resolver that knows the project's orgs.
    func resolver(environment: [String: String]) -> OrgResolver {
        OrgResolver(environment: environment, project: project)
    }
}
