// Placeholder, replaced below.
