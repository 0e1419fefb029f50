"""The SIMT part of the engine: divergent code in masked form, blocks run as wide batches."""
