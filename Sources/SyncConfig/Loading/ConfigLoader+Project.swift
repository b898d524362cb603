import Foundation

extension ConfigLoader {
    /// Loads a project file (`syncrun.yaml` / `syncrun.json`).
    ///
    /// - Parameter url: The file.
    /// - Returns: The project (`nil` when the file has errors) and every diagnostic.
    /// - Throws: ``SyncConfigError`` when the file cannot be read.
    public func loadProjectFile(_ url: URL) throws -> LoadedProjectFile {
        let log = DiagnosticLog()
        let file = Self.displayName(of: url)
        var project: ProjectFile?
        if let root = try parse(url, file: file, log: log) {
            let decoder = ProjectFileDecoder(
                context: DecodingContext(file: file, log: log),
                folder: url.deletingLastPathComponent()
            )
            project = decoder.decode(root, url: url)
        }
        let diagnostics = Self.sorted(log.diagnostics, fileOrder: [file])
        let hasErrors = diagnostics.contains { $0.isError }
        return LoadedProjectFile(project: hasErrors ? nil : project, diagnostics: diagnostics)
    }
}
