"""One thin view per format over the explanation model; views never compute numbers."""
