/// DiscKitAuthoring writes disc images: a UDF 2.50/2.60 image writer and a BDMV builder.
///
/// It is a separate module so that readers of discs do not link writing code.
public enum DiscKitAuthoring {}
