/// What the work of an executing operation does when it is cancelled.
public enum CancellationMode: String, Codable, Sendable, CaseIterable {
  /// The work checks `isCancelled` at intervals and finishes early (the default).
  case cooperative
  /// The operation finishes at once (Operations 2.x / PSOperations behaviour).
  case immediate
  /// The work never checks and runs to its end.
  case ignored
}

/// What an operation is: its kind decides how it starts, runs and finishes.
public enum OperationKind: String, Codable, Sendable, CaseIterable {
  case plain, block, async, group, barrier
}

/// How a condition's evaluation ended.
public enum ConditionResult: String, Codable, Sendable {
  case satisfied, failed
}

/// Why an operation was cancelled: a command, its timeout, its group, a failed condition, a
/// scenario action.
public enum CancelCause: String, Codable, Sendable {
  case command, timeout, parent, condition, action
}

/// Who sent a command: a key on the board, a scenario action, or a program through the API.
public enum CommandSource: String, Codable, Sendable {
  case key, action, api
}
