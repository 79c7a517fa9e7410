"""The web floor: FastAPI pages, the WebSocket hub, templates and hand-written static files."""
