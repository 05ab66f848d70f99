"""Project topics through python-gitlab: create with an avatar read from a file (multipart: part
`avatar` named avatar.png plus the client's empty `file` part), list (search, get_all walking the
Link header, without_projects), get, update (JSON, save(), an avatar, "" to remove it), merge and
delete, and the errors the client raises. TAG is a unique name prefix, AVATAR_FILE a PNG on disk,
USER_TOKEN belongs to a user who is not an administrator."""
import os

from common import connect, emit, error_of

tag = os.environ["TAG"]
gl = connect()
user_gl = connect(os.environ["USER_TOKEN"])


def view(topic):
    return {key: getattr(topic, key) for key in
            ("id", "name", "title", "description", "total_projects_count", "organization_id", "avatar_url")}


with open(os.environ["AVATAR_FILE"], "rb") as image:
    pictured = gl.topics.create({"name": f"{tag}-pic", "title": "Pictured", "description": "from python", "avatar": image})
plain = gl.topics.create({"name": f"{tag}-plain", "title": "Plain"})
fetched = gl.topics.get(pictured.id)

listed = gl.topics.list(search=tag, per_page=1, get_all=True)
# python sends Python booleans as "True"; Forgeline's parameters take true/false only
without_projects = gl.topics.list(search=tag, without_projects="true", get_all=True)

# JSON update through the manager and through save()
updated = gl.topics.update(plain.id, {"title": "Plain 2", "description": "updated"})
plain.description = "saved"
plain.save()
after_save = gl.topics.get(plain.id)

# an avatar added on update, then removed with "" (an empty multipart part)
with open(os.environ["AVATAR_FILE"], "rb") as image:
    with_avatar = gl.topics.update(plain.id, {"avatar": image})
without_avatar = gl.topics.update(pictured.id, {"avatar": ""})

# merge: the project tagged with the source ends up with the target
source = gl.topics.create({"name": f"{tag}-source", "title": "Source"})
project = gl.projects.create({"name": f"{tag}-project", "topics": [source.name], "visibility": "public"})
merged = gl.topics.merge(source.id, plain.id)
project_topics = gl.projects.get(project.id).topics
projects_of_target = [p.id for p in gl.projects.list(topic=plain.name, get_all=True)]

errors = {
    "duplicate": error_of(lambda: gl.topics.create({"name": f"{tag}-PLAIN", "title": "Again"})),
    "merge_itself": error_of(lambda: gl.topics.merge(plain.id, plain.id)),
    "merge_unknown": error_of(lambda: gl.topics.merge(999999, plain.id)),
    "source_gone": error_of(lambda: gl.topics.get(source.id)),
    "non_admin_create": error_of(lambda: user_gl.topics.create({"name": f"{tag}-user", "title": "User"})),
    "non_admin_delete": error_of(lambda: user_gl.topics.delete(plain.id)),
    "non_ascii": error_of(lambda: gl.topics.create({"name": f"{tag}-caf\u00e9", "title": "Cafe"})),
}
user_reads = view(user_gl.topics.get(plain.id))

gl.topics.delete(pictured.id)
errors["deleted"] = error_of(lambda: gl.topics.get(pictured.id))

emit({
    "pictured": view(pictured),
    "fetched": view(fetched),
    "listed_ids": sorted(t.id for t in listed),
    "without_projects_ids": sorted(t.id for t in without_projects),
    "updated": updated,
    "after_save": view(after_save),
    "with_avatar": with_avatar["avatar_url"],
    "without_avatar": without_avatar["avatar_url"],
    "merged": merged,
    "source_id": source.id,
    "project_topics": project_topics,
    "project_id": project.id,
    "projects_of_target": projects_of_target,
    "errors": errors,
    "user_reads": user_reads,
})
