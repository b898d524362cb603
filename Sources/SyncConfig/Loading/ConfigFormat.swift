/// The syntax of a config file, chosen by its extension.
public enum ConfigFormat: String, Sendable, Hashable, CaseIterable {
    /// `.json` (and any extension other than `.yaml` / `.yml`).
    case json
    /// `.yaml` or `.yml`.
    case yaml

    /// The format for a file name's extension (case-insensitive).
    public init(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "yaml", "yml": self = .yaml
        default: self = .json
        }
    }
}
