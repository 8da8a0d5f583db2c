import CoolcalModel

/// A counted rule's walk, kept for `merge`'s many windows: a rule with COUNT is walked
/// from DTSTART in every window (libical's `set_start` cannot skip it), so each window
/// walked the same starts again. The starts given so far are kept, and the walk that
/// gives the rest; a window replays them (`replay()`), its loop the same as before.
/// Only up to `longest` starts (a rule's COUNT), so what is kept stays small.
package final class RecordedWalk {
    /// The longest COUNT recorded: at most a few kilobytes a series.
    package static let longest = 100
    private var starts: [CivilDateTime] = []
    private let source: RuleIterator
    private var ended = false

    package init(_ source: RuleIterator) {
        self.source = source
    }

    /// The `i`-th start of the walk, walked on as far as that; nil past its end.
    fileprivate func start(_ i: Int) -> CivilDateTime? {
        while i >= starts.count {
            guard !ended, let next = source.next() else {
                ended = true
                return nil
            }
            starts.append(next)
        }
        return starts[i]
    }

    /// The walk from its first start.
    package func replay() -> RuleIterator {
        Replay(self)
    }

    /// One window's pass over the walk.
    private final class Replay: RuleIterator {
        private let walk: RecordedWalk
        private var given = 0

        init(_ walk: RecordedWalk) {
            self.walk = walk
        }

        /// A counted walk is never skipped (as libical's `set_start` refuses).
        func skip(to start: CivilDateTime) -> Bool { false }

        func next() -> CivilDateTime? {
            guard let start = walk.start(given) else { return nil }
            given += 1
            return start
        }
    }
}

/// A series' recorded walks, by the index of their rule (`ExpansionPlan.Memo`).
package final class RecordedWalks {
    package var byRule: [Int: RecordedWalk] = [:]

    package init() {}
}
