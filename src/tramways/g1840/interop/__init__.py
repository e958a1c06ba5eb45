"""Interop with other 1840 implementations (18xx.games records and traces)."""
