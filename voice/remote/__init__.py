"""Wyoming links: the table's ears, mouth, recogniser and voice on other machines.

Home Assistant's local voice stack speaks the Wyoming protocol (the `wyoming`
package): satellites stream a microphone and play sound, servers recognise speech
or synthesise it. An address written `wyoming://HOST:PORT` in a setting or flag
picks the remote part; everything else stays local.
"""

# the subpackages and modules: importing this package imports none of them
__all__ = [
    "address",
    "asr",
    "link",
    "nesting",
    "notices",
    "satellite",
    "satellite_link",
    "tts",
    "wire",
]
