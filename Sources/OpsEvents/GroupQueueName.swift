/// A group's children run on a queue of the group's own, named after it: group `g` owns `g.children`.
/// Events name that queue like any other, so everyone who reads them needs this one rule.
public enum GroupQueueName {
  public static let suffix = ".children"

  /// The inner queue of `group`.
  public static func inner(of group: String) -> String { group + suffix }

  /// The group whose inner queue `queue` is, if it is one.
  public static func group(owning queue: String) -> String? {
    queue.hasSuffix(suffix) ? String(queue.dropLast(suffix.count)) : nil
  }
}
