"""A prompt to sound: the neural voice, the cues, their mixing and the speaker."""
