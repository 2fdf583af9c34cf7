/// A fixture the test asked for is not among the recorded ones.
package struct MissingFixture: Error, CustomStringConvertible {
    let name: String
    package var description: String { "no recorded fixture \(name)" }
}
