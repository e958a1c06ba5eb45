"""1840 Vienna Tramways: data, board, rules engine, routes and interop."""
