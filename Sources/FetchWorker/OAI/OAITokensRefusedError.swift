import ArtpipeSupport

/// A harvest whose tokens the server refused too often in a row to go on listing its slice
/// again at once: the page waits on the retry topics, then goes to the dead letters with this.
struct OAITokensRefusedError: ClassifiedError {
    var refusals: Int
    var slice: [String: String]
    var failureClass: FailureClass { .forNow }

    var description: String {
        "the OAI-PMH server refused \(refusals) resumption tokens in a row while listing "
            + "from \(slice["from"] ?? "the start") until \(slice["until"] ?? "now"): its list keeps "
            + "changing, or its tokens expire before the next page is asked for"
    }
}
