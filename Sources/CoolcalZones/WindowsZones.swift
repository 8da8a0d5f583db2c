import _FoundationICU

/// Maps Windows zone names (`Pacific Standard Time`) to IANA ones through ICU's
/// CLDR data, as Outlook and Exchange write them in TZID. Foundation's own ICU is
/// used (its symbols carry a `swift_` prefix); Debian's libicu headers clash with it.
package enum WindowsZones {
    package static func ianaIdentifier(forWindowsName name: String) -> String? {
        let windows = Array(name.utf16)
        guard !windows.isEmpty, windows.count < 128 else { return nil }
        var status = U_ZERO_ERROR
        var buffer = [UChar](repeating: 0, count: 128)
        let length = windows.withUnsafeBufferPointer { win in
            buffer.withUnsafeMutableBufferPointer { out in
                swift_ucal_getTimeZoneIDForWindowsID(
                    win.baseAddress, Int32(win.count), nil, out.baseAddress, Int32(out.count), &status)
            }
        }
        guard status.rawValue <= U_ZERO_ERROR.rawValue, length > 0 else { return nil }
        return String(decoding: buffer[0..<Int(length)], as: UTF16.self)
    }
}
