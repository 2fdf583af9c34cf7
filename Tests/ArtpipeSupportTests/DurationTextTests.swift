import ArtpipeSupport
import Testing

@Suite("Durations written for people")
struct DurationTextTests {
    @Test("flags take a number and a unit; anything else is refused")
    func parse() {
        #expect(Duration(text: "500ms") == .milliseconds(500))
        #expect(Duration(text: "30s") == .seconds(30))
        #expect(Duration(text: "90") == .seconds(90))
        #expect(Duration(text: "10m") == .seconds(600))
        #expect(Duration(text: "1.5h") == .seconds(5_400))
        #expect(Duration(text: "1d") == .seconds(86_400))
        for bad in ["", "m", "-1s", "1w", "1e300d", "nan", "1 h 2"] {
            #expect(Duration(text: bad) == nil, "\(bad)")
        }
    }

    @Test("descriptions keep the two largest units")
    func describe() {
        #expect(Duration.seconds(0).wholeUnitsDescription == "0s")
        #expect(Duration.seconds(12).wholeUnitsDescription == "12s")
        #expect(Duration.seconds(303).wholeUnitsDescription == "5m 3s")
        #expect(Duration.seconds(93_600).wholeUnitsDescription == "1d 2h")
    }
}
