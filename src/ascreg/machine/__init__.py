"""Machine model: registers, mask bit layout, memories and pointers, references."""
