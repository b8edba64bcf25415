"""Lessons: the classic sentence-embedding lab exercises as data (lessons.py) and the checks that compute each
lesson's expected observation on the live model (checks.py)."""
