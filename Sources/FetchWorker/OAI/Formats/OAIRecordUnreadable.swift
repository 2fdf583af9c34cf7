/// A record whose metadata cannot be read: why (a required field missing, a format artpipe
/// does not read). The record goes to the dead letters; its page goes on.
struct OAIRecordUnreadable: Error, Sendable, Equatable {
    var reason: String

    init(_ reason: String) {
        self.reason = reason
    }
}
