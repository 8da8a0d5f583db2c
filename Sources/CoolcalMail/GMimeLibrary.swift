internal import CGMime

/// GMime is initialised once per process, before the first message is read or built.
/// The only folder that imports CGMime is Mail/: the rest of coolcal sees Swift values.
package enum GMimeLibrary {
    private static let initialised: Bool = {
        g_mime_init()
        return true
    }()

    /// Call before any GMime function; cheap after the first call.
    package static func ensureInitialised() {
        _ = initialised
    }
}
