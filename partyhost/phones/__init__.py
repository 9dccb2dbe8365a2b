"""The phone page: each player's secret cards on their own phone, over the local network."""
