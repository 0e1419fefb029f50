"""Machine model: registers, memories and pointers, pipes, blocks, kernel launch, the SIMT engine."""
