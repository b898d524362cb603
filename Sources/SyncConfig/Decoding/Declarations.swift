/// The names a config declares once each (soup names, a soup's index paths, sync names), with the
/// line of each first declaration, reporting a name declared again.
struct Declarations {
    let context: DecodingContext
    /// The diagnostic of a name declared again (`duplicate-soup-name`…).
    let code: Diagnostic.Code
    /// Its message, from the name and the line of its first declaration.
    let message: (_ name: String, _ firstLine: Int) -> String
    private var firstLines: [String: Int] = [:]

    init(
        context: DecodingContext,
        _ code: Diagnostic.Code,
        message: @escaping (_ name: String, _ firstLine: Int) -> String
    ) {
        self.context = context
        self.code = code
        self.message = message
    }

    /// Whether `name`, declared by `node`, was declared before: then it is reported at `position`
    /// (the node's when `nil`) and `path`; else it is recorded as declared on the node's line.
    mutating func isDuplicate(
        _ name: String,
        declaredBy node: ConfigNode,
        at position: TextPosition? = nil,
        path: ConfigPath
    ) -> Bool {
        guard let firstLine = firstLines[name] else {
            firstLines[name] = node.position.line
            return false
        }
        context.error(code, at: position ?? node.position, path: path, message(name, firstLine))
        return true
    }
}
