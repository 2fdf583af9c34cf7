/// Tansu could not be started: no binary named, or it ended before it took requests.
package struct TansuUnavailable: Error, CustomStringConvertible {
    let output: String

    package init(output: String = "ARTPIPE_TEST_TANSU names no Tansu binary (make test sets it)") {
        self.output = output
    }

    package var description: String { "Tansu is unavailable: \(output)" }
}
