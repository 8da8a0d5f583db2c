/// The shape's part in a split scan (`ICalPreFilter+Split`): the state the second part
/// starts in, whether the first part ended in it, and how the two are joined.
extension InputShape {
    /// The shape after a head line, at a line start at depth 1, no error seen.
    package static var assumedAtCut: Self {
        var shape = Self()
        (shape.sawText, shape.headDone, shape.inBlankLines, shape.depth) = (true, true, false, 1)
        return shape
    }

    /// Whether this shape is in the state `assumedAtCut` (what the scan reads; its head
    /// itself and whether a NUL was seen are not read while scanning).
    package var isAtAssumedCut: Bool {
        sawText && headDone && !inBlankLines && depth == 1 && lineLength == 0 && longLine == nil
            && deepLine == nil && head6 == 0 && headCount == 0
    }

    /// Takes on what `later` (started `assumedAtCut`) saw from the cut on, its line
    /// numbers shifted by the lines before it.
    package mutating func append(_ later: Self) {
        let shift = line - 1
        hasNUL = hasNUL || later.hasNUL
        (line, lineLength, depth, head6, headCount) = (later.line + shift, later.lineLength, later.depth, later.head6, later.headCount)
        longLine = later.longLine.map { $0 + shift }
        deepLine = later.deepLine.map { $0 + shift }
    }
}
