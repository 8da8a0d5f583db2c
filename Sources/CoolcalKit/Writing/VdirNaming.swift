import Foundation

/// File names for events in a vdir, made from UIDs that are never trusted: no `/`,
/// no `..`, no control characters, no leading dot, at most 200 bytes.
enum VdirNaming {
    static func safeName(_ uid: String) -> String {
        var name = ""
        for scalar in uid.unicodeScalars {
            let ok = scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "._@+=-".unicodeScalars.contains(scalar))
            name.unicodeScalars.append(ok ? scalar : "_")
        }
        while name.hasPrefix(".") { name = "_" + name.dropFirst() }
        name = String(name.prefix(200))
        return name.isEmpty ? "event" : name
    }

    /// `DIR/NAME.ics`, or `DIR/NAME-2.ics`… when another event already has the name.
    static func file(for uid: String, in dir: String) throws -> String {
        let base = safeName(uid)
        for n in 1...1000 {
            let path = dir + "/" + base + (n == 1 ? "" : "-\(n)") + ".ics"
            guard let data = try? Data(contentsOf: URL(fileURLWithPath: path)) else { return path }
            let text = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\r\n ", with: "")
                .replacingOccurrences(of: "\n ", with: "")
            if text.contains(uid) { return path }
        }
        throw WriteError(kind: .cannotCreate, path: dir, message: "no free file name for \(base).ics")
    }
}
