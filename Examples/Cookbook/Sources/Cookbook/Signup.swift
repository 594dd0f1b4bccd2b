import CoreLogic

/// A sign-up form: field validation, one submission at a time, and the server's field
/// errors shown on the fields they are about.
///
/// Rules:
/// - `submitTapped` is accepted only when every field is valid (the `fieldErrors`
///   query has none) and no submission is in flight. It numbers the attempt and copies
///   all inputs into `submission`; the `submit` request is that copy, so the submitted
///   form is exactly the inputs at the moment of the tap, whatever is typed afterwards.
/// - A tap while a submission is in flight is ignored.
/// - `rejected(attempt:errors:)` maps each server error to its field; editing a field
///   clears that field's server error (it was about the old value), not the others'.
/// - Answers carry the attempt number; an answer for another attempt is ignored.
/// - After `accepted`, the form is done: every later event is ignored.
public enum Signup: Feature {
    public enum Field: String, Codable, Equatable, CaseIterable, Sendable {
        case name, email, password
    }

    public struct Inputs: Codable, Equatable, Sendable {
        public var name: String
        public var email: String
        public var password: String

        public init(name: String = "", email: String = "", password: String = "") {
            self.name = name
            self.email = email
            self.password = password
        }
    }

    /// One message per field; nil where the field is fine.
    public struct FieldErrors: Codable, Equatable, Sendable {
        public var name: String?
        public var email: String?
        public var password: String?

        public init(name: String? = nil, email: String? = nil, password: String? = nil) {
            self.name = name
            self.email = email
            self.password = password
        }

        public subscript(field: Field) -> String? {
            get {
                switch field {
                case .name: return name
                case .email: return email
                case .password: return password
                }
            }
            set {
                switch field {
                case .name: name = newValue
                case .email: email = newValue
                case .password: password = newValue
                }
            }
        }

        public var isEmpty: Bool { name == nil && email == nil && password == nil }
    }

    /// A server-side error about one field.
    public struct ServerError: Codable, Equatable, Sendable {
        public var field: Field
        public var message: String

        public init(field: Field, message: String) {
            self.field = field
            self.message = message
        }
    }

    /// The `submit` effect's request: create the account with `inputs`, then deliver
    /// `accepted`, `rejected` or `failed` with the same attempt number.
    public struct Submission: Codable, Equatable, Sendable {
        public var attempt: Int
        public var inputs: Inputs
    }

    public struct State: Codable, Equatable, Sendable {
        public var inputs: Inputs
        /// The server's errors from the last rejected attempt, per field.
        public var serverErrors: FieldErrors
        /// How many submissions were accepted by the form.
        public var attempts: Int
        /// The submission in flight, if any.
        public var submission: Submission?
        /// A failure that is about no field (offline, server down), until the next attempt.
        public var failure: String?
        /// The new account's id once the server accepted; the form is then done.
        public var accountID: String?

        public init(inputs: Inputs = Inputs(), serverErrors: FieldErrors = FieldErrors(), attempts: Int = 0,
                    submission: Submission? = nil, failure: String? = nil, accountID: String? = nil) {
            self.inputs = inputs
            self.serverErrors = serverErrors
            self.attempts = attempts
            self.submission = submission
            self.failure = failure
            self.accountID = accountID
        }

        /// The local validation errors of the inputs.
        public var localErrors: FieldErrors {
            FieldErrors(
                name: inputs.name.contains { $0 != " " } ? nil : "Enter your name.",
                email: EmailAddress.isValid(inputs.email) ? nil : "Enter a valid email address.",
                password: inputs.password.count >= 8 ? nil : "Use at least 8 characters.")
        }

        /// What each field shows: its local error, else the server's.
        public var fieldErrors: FieldErrors {
            let local = localErrors
            var errors = FieldErrors()
            for field in Field.allCases { errors[field] = local[field] ?? serverErrors[field] }
            return errors
        }

        public var canSubmit: Bool { fieldErrors.isEmpty && submission == nil && accountID == nil }
    }

    public enum Event: Codable, Equatable, Sendable {
        case nameChanged(text: String)
        case emailChanged(text: String)
        case passwordChanged(text: String)
        /// The submit button was tapped.
        case submitTapped
        /// The server created the account (from `submit`).
        case accepted(attempt: Int, accountID: String)
        /// The server refused some fields (from `submit`).
        case rejected(attempt: Int, errors: [ServerError])
        /// The submission failed for a reason about no field (from `submit`).
        case failed(attempt: Int, message: String)

        public enum CodingKeys: String, CodingKey, CaseIterable {
            case nameChanged, emailChanged, passwordChanged, submitTapped, accepted, rejected, failed
        }
    }

    public static let name = "signup"
    public static var initialState: State { State() }

    public static func reduce(_ state: inout State, _ event: Event) {
        guard state.accountID == nil else { return }
        switch event {
        case .nameChanged(let text):
            state.inputs.name = text
            state.serverErrors.name = nil
        case .emailChanged(let text):
            state.inputs.email = text
            state.serverErrors.email = nil
        case .passwordChanged(let text):
            state.inputs.password = text
            state.serverErrors.password = nil
        case .submitTapped:
            guard state.canSubmit else { return }
            state.attempts += 1
            state.submission = Submission(attempt: state.attempts, inputs: state.inputs)
            state.failure = nil
        case .accepted(let attempt, let accountID):
            guard state.submission?.attempt == attempt else { return }
            state.submission = nil
            state.accountID = accountID
        case .rejected(let attempt, let errors):
            guard state.submission?.attempt == attempt else { return }
            state.submission = nil
            state.serverErrors = FieldErrors()
            for error in errors where state.serverErrors[error.field] == nil {
                state.serverErrors[error.field] = error.message
            }
        case .failed(let attempt, let message):
            guard state.submission?.attempt == attempt else { return }
            state.submission = nil
            state.failure = message
        }
    }

    public static var feedbacks: [Feedback<State>] {
        [.react("submit") { $0.submission }]
    }

    /// At most one submission runs, the latest attempt's, and none once the account exists.
    public static var invariants: [Invariant<State>] {
        [
            Invariant("submissionIsLatestAttempt") { state in
                guard let submission = state.submission, submission.attempt != state.attempts else { return nil }
                return "submitting attempt \(submission.attempt), latest attempt \(state.attempts)"
            },
            Invariant("doneMeansNotSubmitting") { state in
                state.accountID != nil && state.submission != nil ? "submitting after the account was created" : nil
            },
        ]
    }

    public static var queries: [StateQuery<State>] {
        [
            StateQuery("fieldErrors") { $0.fieldErrors },
            StateQuery("canSubmit") { $0.canSubmit },
            StateQuery("isSubmitting") { $0.submission != nil },
            StateQuery("isDone") { $0.accountID != nil },
        ]
    }
}
