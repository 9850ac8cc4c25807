"""Knowledge-base storage: protocols plus the embedded SQLite default."""
