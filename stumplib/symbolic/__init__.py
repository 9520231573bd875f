"""SymPy derivations, one module per topic."""
