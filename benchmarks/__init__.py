"""Speed benchmarks: ratios of ascreg against plain numpy doing the same work."""
