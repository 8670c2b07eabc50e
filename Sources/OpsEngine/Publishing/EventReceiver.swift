import OpsEvents

/// Where an `EventPublisher` hands every event it publishes: the runtime that owns it (see
/// `EventPublisher`).
protocol EventReceiver: AnyObject {
  /// One event, warnings included, in order.
  func receive(_ event: borrowing Event)
}
