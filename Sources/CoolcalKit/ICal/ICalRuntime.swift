import CLibical

/// One-time libical set-up: errors must never abort the process.
enum ICalRuntime {
    private static let configured: Bool = {
        icalerror_set_errors_are_fatal(0)
        return true
    }()

    static func ensureConfigured() {
        _ = configured
    }
}
