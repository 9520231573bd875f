"""SymPy derivations behind the chapters, one module per chapter topic."""
