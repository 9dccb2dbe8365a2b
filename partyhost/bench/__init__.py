"""Measurement, apart from the product: `partyhost bench ...` and the scripts in
scripts/ use these. Every bench hears through the same front end, endpointer and reader
as the live ears."""
