/// The messages of the local org's Bulk API 2.0 endpoints (real-org.md §3).
extension OrgError {
    /// A query Bulk API 2.0 cannot run.
    static func bulkUnsupportedQuery(_ feature: String) -> OrgError {
        OrgError(
            status: 400,
            code: Code("API_ERROR"),
            message: "Bulk API 2.0 cannot run a query with \(feature); run this query through REST instead"
        )
    }

    /// An unknown job ID.
    static func jobNotFound(_ id: String) -> OrgError {
        OrgError(status: 404, code: .notFound, message: "Job '\(id)' was not found, or has been deleted")
    }

    /// Results asked of a job that has not reached `JobComplete`.
    static func jobNotComplete(_ id: String, state: String) -> OrgError {
        OrgError(
            status: 400,
            code: Code("JOB_NOT_COMPLETE"),
            message: "Job '\(id)' is in state \(state); its results can be read once it is JobComplete"
        )
    }

    /// Results asked through another API version than the job's.
    static func bulkVersionMismatch(_ id: String, created: String, asked: String) -> OrgError {
        OrgError(
            status: 409,
            code: Code("INVALIDJOBSTATE"),
            message:
                "Job '\(id)' was created with API version \(created); read its results with v\(created), not v\(asked)"
        )
    }

    /// A state change the job's state does not allow.
    static func invalidJobState(_ id: String, state: String, action: String) -> OrgError {
        OrgError(
            status: 400,
            code: Code("INVALIDJOBSTATE"),
            message: "Job '\(id)' is in state \(state) and cannot be \(action)"
        )
    }

    /// Results asked of a job whose results were deleted (past the locator lifetime).
    static func bulkResultsExpired(_ id: String) -> OrgError {
        OrgError(
            status: 404,
            code: .notFound,
            message: "The results of job '\(id)' have expired; run the query again in a new job"
        )
    }

    /// A job body field that is missing or wrong.
    static func invalidJob(_ reason: String) -> OrgError {
        OrgError(status: 400, code: Code("INVALIDJOB"), message: reason)
    }

    /// A result locator the job never handed out.
    static func invalidBulkLocator(_ locator: String) -> OrgError {
        OrgError(
            status: 400,
            code: Code("INVALIDLOCATOR"),
            message: "The locator '\(locator)' does not belong to this job's results"
        )
    }
}
