import FlowIntents

/// The HTTP methods `get-url` sends.
enum HTTPMethod: String, AppEnum {
  case get, post, put, patch, delete

  static let typeDisplayRepresentation: TypeDisplayRepresentation = "Method"
  static let caseDisplayRepresentations: [Self: DisplayRepresentation] = [
    .get: "GET", .post: "POST", .put: "PUT", .patch: "PATCH", .delete: "DELETE",
  ]
}
