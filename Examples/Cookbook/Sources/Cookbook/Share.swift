import CoreLogic

/// A share button whose request is what the user saw when they tapped.
///
/// The tap copies the current files and metadata into `pendingShare`; the `share`
/// feedback's request is that copy, never the live data. So later changes to the files
/// or the metadata, however many, change no request and start no share.
///
/// Rules:
/// - `shareTapped` with no files is ignored (there is nothing to share).
/// - A second `shareTapped` while a share is in flight is ignored: it neither queues a
///   second share nor restarts the first with newer data.
/// - The share ends with `shareFinished(completed:)` (the user sent it, or closed the
///   share sheet) or `shareFailed(message:)`; then the next tap shares the data of
///   that moment.
public enum Share: Feature {
    public struct Metadata: Codable, Equatable, Sendable {
        public var title: String
        public var message: String

        public init(title: String = "", message: String = "") {
            self.title = title
            self.message = message
        }
    }

    /// The `share` effect's request: present the share sheet for these files with this
    /// metadata, then deliver `shareFinished` or `shareFailed`.
    public struct ShareRequest: Codable, Equatable, Sendable {
        public var files: [String]
        public var metadata: Metadata
    }

    /// How the last share ended.
    public enum Outcome: Codable, Equatable, Sendable {
        case sent
        case cancelled
        case failed(message: String)

        public enum CodingKeys: String, CodingKey, CaseIterable {
            case sent, cancelled, failed
        }
    }

    public struct State: Codable, Equatable, Sendable {
        /// The live file list (paths or URLs), in display order.
        public var files: [String]
        /// The live metadata.
        public var metadata: Metadata
        /// The copy taken at the tap, while its share is in flight.
        public var pendingShare: ShareRequest?
        /// How the last share ended; nil before the first.
        public var lastOutcome: Outcome?

        public init(files: [String] = [], metadata: Metadata = Metadata(),
                    pendingShare: ShareRequest? = nil, lastOutcome: Outcome? = nil) {
            self.files = files
            self.metadata = metadata
            self.pendingShare = pendingShare
            self.lastOutcome = lastOutcome
        }
    }

    public enum Event: Codable, Equatable, Sendable {
        /// The file list changed.
        case filesChanged(files: [String])
        /// The metadata changed.
        case metadataChanged(metadata: Metadata)
        /// The share button was tapped.
        case shareTapped
        /// The share sheet closed; `completed` is false when the user cancelled (from `share`).
        case shareFinished(completed: Bool)
        /// Sharing failed (from `share`).
        case shareFailed(message: String)

        public enum CodingKeys: String, CodingKey, CaseIterable {
            case filesChanged, metadataChanged, shareTapped, shareFinished, shareFailed
        }
    }

    public static let name = "share"
    public static var initialState: State { State() }

    public static func reduce(_ state: inout State, _ event: Event) {
        switch event {
        case .filesChanged(let files):
            state.files = files
        case .metadataChanged(let metadata):
            state.metadata = metadata
        case .shareTapped:
            guard state.pendingShare == nil, !state.files.isEmpty else { return }
            state.pendingShare = ShareRequest(files: state.files, metadata: state.metadata)
        case .shareFinished(let completed):
            guard state.pendingShare != nil else { return }
            state.pendingShare = nil
            state.lastOutcome = completed ? .sent : .cancelled
        case .shareFailed(let message):
            guard state.pendingShare != nil else { return }
            state.pendingShare = nil
            state.lastOutcome = .failed(message: message)
        }
    }

    public static var feedbacks: [Feedback<State>] {
        [.react("share") { $0.pendingShare }]
    }

    /// A share in flight always has files to share.
    public static var invariants: [Invariant<State>] {
        [Invariant("pendingShareHasFiles") { state in
            state.pendingShare.map { $0.files.isEmpty ? "a share is pending with no files" : nil } ?? nil
        }]
    }

    public static var queries: [StateQuery<State>] {
        [
            StateQuery("canShare") { $0.pendingShare == nil && !$0.files.isEmpty },
            StateQuery("isSharing") { $0.pendingShare != nil },
        ]
    }
}
