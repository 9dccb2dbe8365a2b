"""Text to intent: a prompt's grammar as a graph of phrases, and the matcher that reads
what was said or typed against it. Nothing here touches audio, so typed play uses it
alone."""
