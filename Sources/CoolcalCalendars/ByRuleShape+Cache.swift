import CoolcalICal
import Foundation

extension ByRuleShape {
    /// The shape of these parts, made once per rule: `merge` expands a series in each of
    /// its windows, and a calendar's series share a few dozen rules.
    static func of(_ parts: RuleParts) -> ByRuleShape? {
        ShapeCache.shared.shape(parts)
    }
}

/// The shapes read so far, by the rule's parts (nil: not one of the shapes). It grows
/// with the distinct rule texts of the calendars read, no more.
private final class ShapeCache: @unchecked Sendable {
    static let shared = ShapeCache()
    /// Guards `shapes` (expansion is on one thread, but nothing here says so).
    private let lock = NSLock()
    private var shapes: [RuleParts: ByRuleShape?] = [:]

    func shape(_ parts: RuleParts) -> ByRuleShape? {
        lock.lock()
        defer { lock.unlock() }
        if let known = shapes[parts] { return known }
        let shape = ByRuleShape(parts)
        shapes[parts] = shape
        return shape
    }
}
