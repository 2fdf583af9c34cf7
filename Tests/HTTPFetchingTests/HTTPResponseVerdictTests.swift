import Foundation
import Testing

@testable import HTTPFetching

@Suite("What an HTTP answer means, without a server")
struct HTTPResponseVerdictTests {
    let request = URL(string: "https://api.example/collection?p=2")!

    func verdict(_ status: Int, _ headers: [String: String] = [:], scale: Double = 1) -> HTTPResponseVerdict {
        HTTPResponseVerdict(status: status, requestURL: request, retryAfterScale: scale) { headers[$0] }
    }

    @Test("2xx is the result; another 4xx is rejected, its body kept for the reason")
    func doneAndRejected() {
        #expect(verdict(200) == .done)
        #expect(verdict(204) == .done)
        #expect(verdict(404) == .reject(status: 404, reason: nil))
        #expect(verdict(401, ["Retry-After": "10"]) == .reject(status: 401, reason: nil))
    }

    @Test("a redirect goes to its Location, resolved against the request; without one it is rejected")
    func redirects() {
        #expect(
            verdict(302, ["Location": "/collection?p=3"])
                == .redirect(URL(string: "https://api.example/collection?p=3")!))
        #expect(
            verdict(301, ["Location": "http://other.example/x"]) == .redirect(URL(string: "http://other.example/x")!))
        #expect(verdict(307) == .reject(status: 307, reason: "redirect without Location"))
    }

    @Test("408, 429 and 5xx are tried again; 429 and 503 with Retry-After pause the whole host, scaled")
    func retries() {
        #expect(verdict(500) == .retry(failure: "HTTP 500", retryAfter: nil, holdsHost: false))
        #expect(
            verdict(408, ["Retry-After": "5"]) == .retry(failure: "HTTP 408", retryAfter: .seconds(5), holdsHost: false)
        )
        #expect(
            verdict(503, ["Retry-After": "120"])
                == .retry(failure: "HTTP 503", retryAfter: .seconds(120), holdsHost: true))
        #expect(
            verdict(429, ["Retry-After": "3600"], scale: 0.001)
                == .retry(failure: "HTTP 429", retryAfter: .milliseconds(3_600), holdsHost: true))
        #expect(verdict(429, ["Retry-After": "soon"]) == .retry(failure: "HTTP 429", retryAfter: nil, holdsHost: false))
    }
}
