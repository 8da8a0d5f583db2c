import Foundation
import CoolcalModel

/// Who coolcal says it is to a CalDAV server (HTTP Basic): `user:password@` in the
/// URL first, else the `.netrc` entry for the host (`NETRC` names the file, default
/// `~/.netrc`). The password is never part of a description.
package struct CalDAVCredentials: Equatable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    package var user: String
    package var password: String
    /// Where they came from, for messages: `the URL` or the netrc file's path.
    package var source: String

    package init(user: String, password: String, source: String) {
        self.user = user
        self.password = password
        self.source = source
    }

    /// `Basic base64(user:password)`.
    package var authorization: String {
        "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    }

    package var description: String { "\(user) (from \(source))" }
    package var debugDescription: String { "CalDAVCredentials(\(description))" }

    /// The credentials for `location`, or nil to ask without any. A netrc that
    /// others can read is used, with a warning (curl says nothing; ftp refuses).
    package static func resolve(for location: CalDAVLocation, environment: [String: String],
                               diagnostics: Diagnostics?) -> CalDAVCredentials? {
        if let user = location.user, let password = location.password {
            return CalDAVCredentials(user: user, password: password, source: "the URL")
        }
        guard let host = location.url.host, let path = netrcPath(environment) else { return nil }
        let explicit = !(environment["NETRC"] ?? "").isEmpty
        guard FileManager.default.fileExists(atPath: path) else {
            if explicit { diagnostics?.warn("NETRC: \(path): no such file; asking \(location.display) without credentials") }
            return nil
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            diagnostics?.warn("\(path): cannot read the netrc file; asking \(location.display) without credentials")
            return nil
        }
        let netrc = Netrc(parsing: String(decoding: data, as: UTF8.self))
        guard let entry = netrc.entry(host: host, login: location.user), let password = entry.password else { return nil }
        if let mode = (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int,
           mode & 0o044 != 0 {
            diagnostics?.warn("\(path) holds passwords and is readable by others (chmod 600 \(path))")
        }
        return CalDAVCredentials(user: entry.login ?? location.user ?? "", password: password, source: path)
    }

    /// `NETRC`, else `$HOME/.netrc`.
    package static func netrcPath(_ environment: [String: String]) -> String? {
        if let path = environment["NETRC"], !path.isEmpty { return path }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return (home as NSString).appendingPathComponent(".netrc")
    }
}
