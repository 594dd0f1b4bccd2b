/// The kind of an input, as journals, batches and traces name it.
public enum InputKind: String, Sendable {
    case send, deliver, complete
}
