/// A calendar that libical cannot read, naming the file.
public struct ICalError: Error, CustomStringConvertible, Equatable {
    public var file: String
    public var message: String

    public init(file: String, message: String) {
        self.file = file
        self.message = message
    }

    public var description: String { "\(file): \(message)" }
}
