internal import CLibical
import Foundation
import Glibc

/// An icalcomponent tree that we own: freed in deinit.
package final class OwnedComponent {
    package let pointer: OpaquePointer

    package init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        icalcomponent_free(pointer)
    }

    /// Parses iCalendar text; nil when libical finds no component at all.
    package static func parse(_ text: UnsafePointer<CChar>) -> OwnedComponent? {
        ICalRuntime.ensureConfigured()
        // libical prints some parse complaints ("Encountered END before BEGIN") straight
        // to stderr; coolcal speaks for itself, so they go to /dev/null meanwhile.
        guard let root = ICalRuntime.withQuietStderr({ icalparser_parse_string(text) }) else { return nil }
        return OwnedComponent(taking: root)
    }
}

/// Sequence helpers over a component's children and properties (borrowed pointers,
/// valid while the owning tree lives).
package enum ICalWalk {
    /// A component's own METHOD (a VCALENDAR's), upper-cased.
    static func method(of component: OpaquePointer) -> String? {
        icalcomponent_get_first_property(component, ICAL_METHOD_PROPERTY)
            .flatMap { copy(icalproperty_get_value_as_string($0)) }?
            .trimmingCharacters(in: .whitespaces).uppercased()
    }

    /// Whether a VCALENDAR's METHOD answers about its events (`ICalCalendar.answerMethods`).
    static func answers(_ vcalendar: OpaquePointer) -> Bool {
        method(of: vcalendar).map(ICalCalendar.answerMethods.contains) ?? false
    }

    static func children(of parent: OpaquePointer, kind: icalcomponent_kind) -> [OpaquePointer] {
        var result: [OpaquePointer] = []
        var child = icalcomponent_get_first_component(parent, kind)
        while let c = child {
            result.append(c)
            child = icalcomponent_get_next_component(parent, kind)
        }
        return result
    }

    package static func properties(of component: OpaquePointer) -> [OpaquePointer] {
        var result: [OpaquePointer] = []
        var prop = icalcomponent_get_first_property(component, ICAL_ANY_PROPERTY)
        while let p = prop {
            result.append(p)
            prop = icalcomponent_get_next_property(component, ICAL_ANY_PROPERTY)
        }
        return result
    }

    /// Copies a string libical returns from its ring buffer (never freed by us).
    package static func copy(_ s: UnsafePointer<CChar>?) -> String? {
        guard let s else { return nil }
        return String(cString: s)
    }

    static func parameter(_ prop: OpaquePointer, _ kind: icalparameter_kind) -> OpaquePointer? {
        icalproperty_get_first_parameter(prop, kind)
    }
}

extension OwnedComponent {
    /// libical's tree of checked text (`ICalReader`'s checks passed), or an `ICalError`
    /// naming `file` and what libical could not read.
    package static func checked(_ data: Data, file: String) throws -> OwnedComponent {
        let skip = data.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        // libical wants a NUL-terminated string: one copy, with the BOM dropped.
        let parsed = data.withUnsafeBytes { raw -> OwnedComponent? in
            let count = raw.count - skip
            let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: count + 1)
            defer { buffer.deallocate() }
            if count > 0, let base = raw.baseAddress { memcpy(buffer, base + skip, count) }
            buffer[count] = 0
            return OwnedComponent.parse(buffer)
        }
        guard let root = parsed else {
            throw ICalError(file: file, message: ICalReader.unreadableReason(data))
        }
        return root
    }
}
