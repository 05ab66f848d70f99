"""Markdown uploads through python-gitlab: project.upload() with data and with a file path, then
the file fetched back at the url the answer links (relative to the project's page). TAG names
the project."""
import os
import tempfile

import requests

from common import connect, emit

gl = connect()
project = gl.projects.create({"name": os.environ["TAG"], "visibility": "private"})

from_data = project.upload("notes.txt", filedata=b"release notes\n")
with tempfile.NamedTemporaryFile("wb", suffix=".png", delete=False) as handle:
    handle.write(bytes.fromhex("89504e470d0a1a0a"))
    path = handle.name
from_path = project.upload("shot.png", filepath=path)

served = requests.get(f"{project.web_url}{from_data['url']}", headers={"PRIVATE-TOKEN": os.environ["FORGELINE_TOKEN"]})
anonymous = requests.get(f"{project.web_url}{from_data['url']}")

emit({
    "project_id": project.id,
    "from_data": from_data,
    "from_path": from_path,
    "served": {"status": served.status_code, "text": served.text, "type": served.headers.get("content-type")},
    "anonymous_status": anonymous.status_code,
})
