// PLACEHOLDER: the owning issue adds its benchmarks here.

let dvdBenchmarks: [Benchmark] = []
