"""Vectorised lane semantics on numpy arrays; no C++ spellings, no argument parsing."""
