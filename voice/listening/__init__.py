"""Frames to a reply: devices and files in, the front end's gain, the endpointer, the
recogniser's reading of one utterance, the checks on it, and the ears that hand the
session what was understood."""
