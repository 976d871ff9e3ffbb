/// The rule for a display name, wherever one comes from (`--display`, a recipe, an API body):
/// 1 to 64 characters and at most 256 bytes of UTF-8. Both bounds count: a "character" can be a
/// cluster of any number of combining marks, so 64 of them alone bound nothing.
package enum DisplayName {
    package static let maximumCharacters = 64
    package static let maximumBytes = 256

    package static func isValid(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= maximumBytes && name.count <= maximumCharacters
    }

    package static let ruleDescription = "a display name of 1-64 characters and at most 256 bytes"
}
