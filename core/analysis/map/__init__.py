"""The map: projections and their disk store, cluster keywords and search, neighbourhoods."""
