import CoreLogic

/// A profile settings form: typed updates, validation queries, and a save that runs
/// once per press.
///
/// Rules:
/// - The form changes only through its typed updates (`setName`, `setEmail`,
///   `setAvatar`, `upgradeToPremium`); each is one event, so it is applied whole in one
///   step and no host can leave the form half-changed. Premium is one-way: there is no
///   downgrade from the form.
/// - `savePressed` is accepted only when `canSave` holds: a valid email, a non-blank
///   name, changes to save, and no save in flight. An accepted press numbers itself
///   (`press`) and copies the form into `saving`; the `save` request is that copy. A
///   second press while saving is ignored, and an equal request never restarts the
///   effect, so one press is one save.
/// - Edits while saving go to the form, not to the request in flight; after the save
///   they show as unsaved changes.
/// - `saved` and `saveFailed` carry the press number; an answer for another press is
///   ignored.
public enum Profile: Feature {
    public struct Form: Codable, Equatable, Sendable {
        public var name: String
        public var email: String
        /// The avatar image's URL; nil for none.
        public var avatarURL: String?
        public var isPremium: Bool

        public init(name: String = "", email: String = "", avatarURL: String? = nil, isPremium: Bool = false) {
            self.name = name
            self.email = email
            self.avatarURL = avatarURL
            self.isPremium = isPremium
        }
    }

    /// The `save` effect's request: store `form`, then deliver `saved(press:)` or
    /// `saveFailed(press:message:)` with the same press number.
    public struct SaveRequest: Codable, Equatable, Sendable {
        public var press: Int
        public var form: Form
    }

    public struct State: Codable, Equatable, Sendable {
        /// What the user sees and edits.
        public var form: Form
        /// The form as last saved.
        public var saved: Form
        /// How many save presses were accepted.
        public var presses: Int
        /// The save in flight, if any.
        public var saving: SaveRequest?
        /// The last save's failure, until the next accepted press.
        public var lastError: String?

        public init(form: Form = Form(), saved: Form = Form(), presses: Int = 0,
                    saving: SaveRequest? = nil, lastError: String? = nil) {
            self.form = form
            self.saved = saved
            self.presses = presses
            self.saving = saving
            self.lastError = lastError
        }

        public var isEmailValid: Bool { EmailAddress.isValid(form.email) }
        public var isNameValid: Bool { form.name.contains { $0 != " " } }
        public var hasChanges: Bool { !JSONIdentity.same(form, saved) }
        public var canSave: Bool { isEmailValid && isNameValid && hasChanges && saving == nil }
    }

    public enum Event: Codable, Equatable, Sendable {
        case setName(name: String)
        case setEmail(email: String)
        /// nil removes the avatar.
        case setAvatar(url: String?)
        case upgradeToPremium
        /// The save button was pressed.
        case savePressed
        /// The save of press `press` succeeded (from `save`).
        case saved(press: Int)
        /// The save of press `press` failed (from `save`).
        case saveFailed(press: Int, message: String)

        public enum CodingKeys: String, CodingKey, CaseIterable {
            case setName, setEmail, setAvatar, upgradeToPremium, savePressed, saved, saveFailed
        }
    }

    public static let name = "profile"
    public static var initialState: State { State() }

    public static func reduce(_ state: inout State, _ event: Event) {
        switch event {
        case .setName(let name):
            state.form.name = name
        case .setEmail(let email):
            state.form.email = email
        case .setAvatar(let url):
            state.form.avatarURL = url
        case .upgradeToPremium:
            state.form.isPremium = true
        case .savePressed:
            guard state.canSave else { return }
            state.presses += 1
            state.saving = SaveRequest(press: state.presses, form: state.form)
            state.lastError = nil
        case .saved(let press):
            guard let saving = state.saving, saving.press == press else { return }
            state.saved = saving.form
            state.saving = nil
        case .saveFailed(let press, let message):
            guard let saving = state.saving, saving.press == press else { return }
            state.saving = nil
            state.lastError = message
        }
    }

    public static var feedbacks: [Feedback<State>] {
        [.react("save") { $0.saving }]
    }

    /// At most one save runs, and it is the one of the latest press.
    public static var invariants: [Invariant<State>] {
        [Invariant("savingIsLatestPress") { state in
            guard let saving = state.saving, saving.press != state.presses else { return nil }
            return "saving press \(saving.press), latest press \(state.presses)"
        }]
    }

    public static var queries: [StateQuery<State>] {
        [
            StateQuery("isEmailValid") { $0.isEmailValid },
            StateQuery("isNameValid") { $0.isNameValid },
            StateQuery("hasChanges") { $0.hasChanges },
            StateQuery("canSave") { $0.canSave },
            StateQuery("isSaving") { $0.saving != nil },
        ]
    }
}
