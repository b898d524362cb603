import Testing

@testable import OrgClient

struct RetryPolicyTests {
    @Test func delaysDoubleUpToTheCap() {
        let policy = RetryPolicy(maxAttempts: 10, baseDelay: .milliseconds(250), maxDelay: .seconds(2), jitter: 0)
        let delays = (1...6).map { policy.delay(beforeRetry: $0, randomUnit: 0.9) }
        #expect(delays == [.milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), .seconds(2), .seconds(2)])
    }

    @Test func jitterTakesOffUpToItsFraction() {
        let policy = RetryPolicy(baseDelay: .seconds(1), maxDelay: .seconds(10), jitter: 0.5)
        #expect(policy.delay(beforeRetry: 1, randomUnit: 0) == .seconds(1))
        #expect(policy.delay(beforeRetry: 1, randomUnit: 0.5) == .milliseconds(750))
        #expect(policy.delay(beforeRetry: 2, randomUnit: 1) == .seconds(1))
    }

    @Test func valuesAreClamped() {
        let policy = RetryPolicy(maxAttempts: 0, baseDelay: .seconds(-1), jitter: 3)
        #expect(policy.maxAttempts == 1)
        #expect(policy.baseDelay == .zero)
        #expect(policy.jitter == 1)
    }

    @Test func hugeRetryNumbersStayAtTheCap() {
        let policy = RetryPolicy(baseDelay: .milliseconds(1), maxDelay: .seconds(30), jitter: 0)
        #expect(policy.delay(beforeRetry: 10_000, randomUnit: 0) == .seconds(30))
    }
}
