import Testing

/// The real-data trait for the BDMV suites (`Fixtures.realDataMissing` is a `String`, traits want a `Comment`).
package let needsRealData = ConditionTrait.enabled(
  if: Fixtures.hasRealData, Comment(rawValue: Fixtures.realDataMissing))
