"""Seekers: the systems under test, their protocol and registry, and the shipped baselines."""
