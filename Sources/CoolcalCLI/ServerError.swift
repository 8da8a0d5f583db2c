import Foundation

/// Could not deliver everything to the server (`outbox flush`): 75, or 77 when the
/// server refused the credentials.
public struct ServerError: Error, CustomStringConvertible, Equatable {
    public var message: String
    public var denied: Bool
    public var description: String { message }
}
