"""Trained networks for the nn bot (`courtcards train`, courtcards.nn): one .npz per table configuration."""
