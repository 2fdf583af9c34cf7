import ArtpipeSupport
import PipelineOperations
import Testing

/// `artpipe status --workers`: the flag read, and each worker's line.
@Suite("What the workers say of themselves, in status")
struct WorkerHealthReportTests {
    @Test("--workers takes comma-separated http(s) URLs and refuses anything else with the flag's name")
    func urls() throws {
        #expect(try WorkerHealthReport.urls(fromFlag: "") == [])
        #expect(
            try WorkerHealthReport.urls(fromFlag: "http://10.0.0.5:8080, https://index-1:8080/")
                == ["http://10.0.0.5:8080", "https://index-1:8080/"])
        for bad in ["10.0.0.5:8080", "ftp://host", "http://", "http://host:8080/?x=1"] {
            let error = #expect(throws: ConfigurationError.self) { try WorkerHealthReport.urls(fromFlag: bad) }
            #expect(error?.description.contains("--workers: '\(bad)'") == true, "\(String(describing: error))")
        }
    }

    @Test("a worker unhealthy says why; one healthy but not ready says so; the status text lists them last")
    func lines() {
        var status = PipelineStatus()
        status.workers = [
            WorkerHealthReport(
                url: "http://a:8080", healthy: false, ready: false,
                detail: "1 partition(s) held for 42 s: the broker has not said where they start"),
            WorkerHealthReport(url: "http://b:8080", healthy: true, ready: false, detail: "not ready joined=false"),
        ]
        let text = status.text
        #expect(
            text.hasSuffix(
                """
                workers (their /healthz and /readyz):
                  http://a:8080\tUNHEALTHY: 1 partition(s) held for 42 s: the broker has not said where they start
                  http://b:8080\tnot ready: not ready joined=false
                """), "\(text)")
    }
}
