import Foundation
import CoolcalModel

/// A whole text in memory scanned by the pre-filter in one call: for tests and the
/// `FuzzPreFilter` harness (the commands stream files through `ICalPreFilter.feed`).
public enum PreFilterRun {
    /// Filters a whole calendar in memory (the input itself when it cannot be judged).
    public static func filter(_ data: Data, window: TimeWindow) -> Data {
        filterKeepingRevisions(data, window: window).kept
    }

    /// `filter`, and the revisions of the events it dropped.
    public static func filterKeepingRevisions(_ data: Data, window: TimeWindow) -> (kept: Data, skipped: ICalSkippedRevisions) {
        var filter = ICalPreFilter(window: window)
        data.withUnsafeBytes { filter.feed($0) }
        guard let kept = filter.finish() else { return (data, []) }
        return (kept, filter.skippedRevisions)
    }

    /// What the scan of `data` for `window` ends with — the kept text (nil: parse whole),
    /// the revisions dropped, the shape's refusal (or whether there is text) — scanned
    /// in one part (`cut` nil) or two cut at `cut`: for the `FuzzPreFilter` harness.
    public static func outcome(_ data: Data, window: TimeWindow, cut: Int?) -> (kept: Data?, skipped: [ICalRevision], shape: String) {
        var filter = ICalPreFilter(window: window, shape: InputShape())
        data.withUnsafeBytes { raw in
            if let cut { _ = filter.feedAll(raw, cut: min(max(cut, 0), raw.count)) } else { filter.feed(raw) }
        }
        // As `check(file: "fuzz.ics")` (CoolcalICal) returns or throws it.
        let checked = filter.shape ?? InputShape()
        let shape = checked.refusal.map { "refused: fuzz.ics: \($0)" } ?? "text: \(checked.sawText)"
        let kept = filter.finish()
        return (kept, filter.skippedRevisions.all, shape)
    }
}
