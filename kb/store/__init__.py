"""Knowledge-base storage: protocols, the embedded SQLite default, the PostgreSQL + pgvector backend
(``kb.store.postgres``, imports psycopg lazily) and ``kb.store.factory.open_store`` that picks one."""
