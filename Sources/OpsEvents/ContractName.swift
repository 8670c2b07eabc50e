/// An enum of the contract whose case names are its JSON names (`EventType`, `CauseKind`): one
/// declaration of the cases, the names derived from it, so a name cannot be spelt twice.
public protocol ContractName: CaseIterable, Hashable, Sendable, RawRepresentable
where RawValue == Int, AllCases == [Self] {
  /// The case names by raw value, and back: each conforming type stores one `ContractNames`.
  static var contractNames: ContractNames<Self> { get }
}

extension ContractName {
  /// The JSON name.
  public var name: String { Self.contractNames.names[rawValue] }

  /// The case named `name` in JSON, if the contract has one.
  public init?(name: String) {
    guard let found = Self.contractNames.byName[name] else { return nil }
    self = found
  }
}

/// The names of a `ContractName`'s cases, computed once.
public struct ContractNames<T: ContractName>: Sendable {
  let names: [String]
  let byName: [String: T]

  public init() {
    names = T.allCases.map { String(describing: $0) }
    byName = Dictionary(uniqueKeysWithValues: T.allCases.map { (String(describing: $0), $0) })
  }
}
