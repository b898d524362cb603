/// The HTTP method of a composite subrequest.
public enum OrgRequestMethod: String, Sendable, Hashable {
    case get = "GET"
    case post = "POST"
    case patch = "PATCH"
    case delete = "DELETE"
}
