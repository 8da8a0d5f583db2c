import CoolcalModel
import CoolcalScan
import CoolcalICal
import CoolcalCalendars
import Foundation

/// Differential: the byte-level pre-filter (`ICalReader.read(_:file:window:)`) must give
/// the answers of libical's full parse for the window it filtered for:
/// - the same occurrences (uid, recurrence id, start, end, summary, busy, in order);
/// - an error exactly when the full parse errs, with the same message;
/// - every warning of the filtered read among the full read's warnings (as sets; each
///   side's warnings are distinct anyway, `Diagnostics` keeps a message once). The
///   full read may have more: a dropped event's own warnings, or a different recovery
///   of libical's from a garbled neighbour of a dropped event. A warning only the
///   filtered read has is a difference.
/// Warnings about resource limits (rule steps, occurrence counts) are left out: walking a
/// series to its step limit is work the pre-filter may rightly prove unnecessary.
/// Both filtered reads: of a file that is a calendar on its own (`standalone`: dropped
/// events recorded by place and read again, as `conflicts` reads a file) and of one of
/// many (their UIDs kept). And the scan cut in two parts gives the sequential scan's
/// outcome (`checkSplit`).
/// A difference aborts: in a fuzz harness that is the bug report.
private let floatingZone = TimeZone(identifier: "America/Los_Angeles") ?? TimeZone(secondsFromGMT: 0)!

/// 2022-08-19T00:00:00Z … 2022-08-22T00:00:00Z: the samples' weekend.
private let window = TimeWindow(start: 1_660_867_200, end: 1_660_867_200 + 3 * 86_400)

private enum Answer {
    case failed(String)
    case found(occurrences: [String], warnings: [String])

    /// Whether `filtered` keeps the contract against `self`, the full parse.
    func admits(_ filtered: Answer) -> Bool {
        switch (self, filtered) {
        case (.failed(let full), .failed(let fast)):
            return full == fast
        case (.found(let full, let fullWarnings), .found(let fast, let fastWarnings)):
            return full == fast && Set(fastWarnings).isSubset(of: Set(fullWarnings))
        default:
            return false
        }
    }
}

private func answer(_ input: Data, filtered: Bool, standalone: Bool = false) -> Answer {
    let calendar: ICalCalendar
    do {
        calendar = try ICalReader.read(input, file: "fuzz.ics", window: filtered ? window : nil, standalone: standalone)
    } catch {
        return .failed(String(describing: error))
    }
    let loaded = LoadedCalendar(name: "fuzz.ics", color: nil, files: [calendar])
    let diagnostics = Diagnostics()
    let options = ExpansionOptions(floatingZone: floatingZone, me: ["me@example.com"], maxSteps: 20_000,
                                   maxOccurrencesPerEvent: 2_000)
    let found = OccurrenceExpander(options: options, diagnostics: diagnostics)
        .occurrences(in: window, calendars: [loaded])
    let described = found.map {
        "uid=\($0.uid ?? "-") rid=\($0.recurrenceID?.jsonString ?? "-") start=\($0.start.jsonString) "
            + "end=\($0.end.jsonString) summary=\($0.summary ?? "-") busy=\($0.busy)"
    }
    let warnings = diagnostics.warnings.filter {
        !$0.contains("stopped expanding") && !$0.contains("occurrences in the window; the rest are left out")
    }
    return .found(occurrences: described, warnings: warnings)
}

/// One answer, one line per item; warnings missing from `full` are marked.
private func show(_ a: Answer, full: Answer? = nil) -> String {
    switch a {
    case .failed(let message): return "  threw: \(message)\n"
    case .found(let occurrences, let warnings):
        var known: Set<String>?
        if case .found(_, let fullWarnings) = full { known = Set(fullWarnings) }
        return occurrences.map { "  occurrence \($0)\n" }.joined()
            + warnings.map { w in
                let mark = known.map { $0.contains(w) } == false ? " (not in the full parse)" : ""
                return "  warning\(mark) \(w)\n"
            }.joined()
    }
}

/// The scan in two parts (`ICalPreFilter+Split`) must end as the sequential scan does —
/// kept text, dropped revisions, the shape's refusal — wherever it is cut: at every line
/// start (at most 64 of them, spread over the input) and at one offset inside a line.
private func checkSplit(_ input: Data) {
    let sequential = PreFilterRun.outcome(input, window: window, cut: nil)
    var starts = [0] + input.indices.filter { input[$0] == 0x0A }.map { $0 + 1 }
    if starts.count > 64 { starts = (0..<64).map { starts[$0 * starts.count / 64] } }
    for cut in starts + [input.count / 3] {
        let split = PreFilterRun.outcome(input, window: window, cut: cut)
        if split != sequential {
            FileHandle.standardError.write(Data((
                "FuzzPreFilter: the scan cut at byte \(cut) differs from the sequential scan\n"
                    + "sequential: kept \(sequential.kept?.count ?? -1) bytes, \(sequential.skipped.count) skipped, \(sequential.shape)\n"
                    + "split: kept \(split.kept?.count ?? -1) bytes, \(split.skipped.count) skipped, \(split.shape)\n"
            ).utf8))
            abort()
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Data(bytes: data, count: size)
    checkSplit(input)
    let full = answer(input, filtered: false)
    for standalone in [false, true] {
        let fast = answer(input, filtered: true, standalone: standalone)
        if !full.admits(fast) {
            FileHandle.standardError.write(Data((
                "FuzzPreFilter: the pre-filtered read\(standalone ? " (standalone)" : "") differs from the full parse "
                    + "(window \(window.start)…\(window.end))\n"
                    + "full parse:\n" + show(full) + "pre-filtered:\n" + show(fast, full: full)
            ).utf8))
            abort()
        }
    }
    return 0
}
