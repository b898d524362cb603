import Testing

@testable import OrgClient

struct RetryStateMachineTests {
    typealias Outcome = RetryStateMachine.Outcome

    static let policy = RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(100), maxDelay: .seconds(1), jitter: 0)

    @Test(arguments: [
        (Outcome.response(status: 503, errorCode: nil), true, true),
        (.response(status: 502, errorCode: nil), false, true),
        (.response(status: 504, errorCode: nil), false, true),
        (.response(status: 500, errorCode: nil), true, true),
        (.response(status: 500, errorCode: nil), false, false),
        (.response(status: 403, errorCode: "REQUEST_LIMIT_EXCEEDED"), false, true),
        (.response(status: 403, errorCode: "INSUFFICIENT_ACCESS"), true, false),
        (.response(status: 400, errorCode: "MALFORMED_QUERY"), true, false),
        (.response(status: 401, errorCode: "INVALID_SESSION_ID"), true, false),
        (.response(status: 404, errorCode: "NOT_FOUND"), true, false),
        (.response(status: 412, errorCode: nil), true, false),
        (.connectFailed, false, true),
        (.connectFailed, true, true),
        (.responseLost, true, true),
    ])
    func firstDecision(outcome: Outcome, isIdempotent: Bool, retries: Bool) {
        var machine = RetryStateMachine(policy: Self.policy, isIdempotent: isIdempotent)
        let action = machine.next(after: outcome, randomUnit: 0)
        if retries {
            #expect(action == .retry(after: .milliseconds(100)))
            #expect(machine.attempt == 2)
        } else {
            #expect(action == .fail(.notRetryable))
            #expect(machine.attempt == 1)
        }
    }

    @Test func lostResponseOfNonIdempotentRequestIsUnsafeToRetry() {
        var machine = RetryStateMachine(policy: Self.policy, isIdempotent: false)
        #expect(machine.next(after: .responseLost, randomUnit: 0) == .fail(.unsafeToRetry))
    }

    @Test func stopsAfterMaxAttemptsWithDoublingDelays() {
        var machine = RetryStateMachine(policy: Self.policy, isIdempotent: true)
        let outcome = Outcome.response(status: 503, errorCode: nil)
        #expect(machine.next(after: outcome, randomUnit: 0) == .retry(after: .milliseconds(100)))
        #expect(machine.next(after: outcome, randomUnit: 0) == .retry(after: .milliseconds(200)))
        #expect(machine.next(after: outcome, randomUnit: 0) == .fail(.attemptsExhausted))
        #expect(machine.attempt == 3)
        #expect(machine.retries == 2)
    }

    @Test func requestLimitIsNotRetriedWhenThePolicySaysSo() {
        var policy = Self.policy
        policy.retriesRequestLimit = false
        var machine = RetryStateMachine(policy: policy, isIdempotent: true)
        #expect(
            machine.next(after: .response(status: 403, errorCode: "REQUEST_LIMIT_EXCEEDED"), randomUnit: 0)
                == .fail(.notRetryable)
        )
    }

    @Test func neverPolicyFailsAtOnce() {
        var machine = RetryStateMachine(policy: .never, isIdempotent: true)
        #expect(machine.next(after: .connectFailed, randomUnit: 0) == .fail(.attemptsExhausted))
    }
}
