"""Listening and understanding: everything between sound and an Intent. No game rules."""
