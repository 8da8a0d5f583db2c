import CoolcalSupport
import Foundation
import Glibc

/// `coolcal-http`'s life: a request's frame on its standard input, the reply's frame on
/// its standard output, until the input ends (coolcal closed it, or ended).
package enum HelperLoop {
    package static let usage = """
        coolcal-http: coolcal's HTTP helper, started by coolcal for its requests to servers;
        it reads requests from a pipe and is not run by hand (see coolcal(1), FILES)

        """

    /// The exit status: 0 at the input's end, 64 when run by hand, 65 for a request
    /// that is not one, 74 when the reply cannot be written.
    package static func run(arguments: [String]) -> Int32 {
        if arguments.count > 1 || isatty(0) == 1 {
            FileHandle.standardError.write(Data(usage.utf8))
            return 64
        }
        var reader = HTTPFrameReader()
        while true {
            guard case .frame(let fields) = reader.next(from: 0) else { return 0 }
            guard let request = HTTPWire.request(fields) else {
                FileHandle.standardError.write(Data("coolcal-http: what coolcal sent is not a request\n".utf8))
                return 65
            }
            let frame = HTTPWire.encode(SessionExchange.send(request))
            let written = frame.withUnsafeBytes { raw -> Bool in (try? SystemCalls.writeAll(1, raw)) != nil }
            guard written else { return 74 }
        }
    }
}
