"""One pure package per rule system: fate, lifegear, cliche, storyteller, matter."""
