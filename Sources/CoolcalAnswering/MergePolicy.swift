/// What `merge` does with each invitation.
package enum MergePolicy: String, Equatable, Sendable, CaseIterable {
    case acceptIfFree = "accept-if-free"
    case acceptAll = "accept-all"
    case declineBusy = "decline-busy"
    case report
}
