/// What a request's method and path name.
package enum RouteMatch: Equatable, Sendable {
    /// A route, with the `{id}` segment when its path has one.
    case route(APIRoute, id: String?)
    /// The path exists, with other methods.
    case methodNotAllowed(allowed: [String])
    case notFound
}
