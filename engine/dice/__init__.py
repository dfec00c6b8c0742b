"""Dice core: random sources, notation (parse → tree → evaluate → render), odds, verification."""
