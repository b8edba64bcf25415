"""What the pages cache and the server's queue of heavy work, with progress."""
