"""gl.version() reads GET /version."""
from common import connect, emit

version, revision = connect().version()
emit({"version": version, "revision": revision})
