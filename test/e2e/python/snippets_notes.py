"""Project snippets and notes through python-gitlab 3.12: project.snippets.create with the older
file_name + content form, get, list (get_all walking the Link header), save() of changed attributes,
content() (the raw file), delete; issue.notes, mr.notes and snippet.notes create / list / get / save
/ delete, internal notes, and the errors the client raises. TAG is a unique name prefix, DEV_ID /
DEV_TOKEN belong to a Developer of the project the script creates, GUEST_ID / GUEST_TOKEN to a
Guest."""
import os

import gitlab

from common import connect, emit, error_of

tag = os.environ["TAG"]
dev_id = int(os.environ["DEV_ID"])
guest_id = int(os.environ["GUEST_ID"])
gl = connect()
dev_gl = connect(os.environ["DEV_TOKEN"])
guest_gl = connect(os.environ["GUEST_TOKEN"])
anonymous = gitlab.Gitlab(os.environ["FORGELINE_URL"])

SNIPPET_KEYS = ("id", "title", "description", "visibility", "project_id", "file_name", "web_url", "raw_url")
NOTE_KEYS = ("id", "body", "noteable_type", "noteable_id", "noteable_iid", "project_id", "internal", "confidential", "system")


def view(obj, keys):
    data = obj.attributes
    return {key: data[key] for key in keys} | {"author_id": data["author"]["id"]}


project = gl.projects.create({"name": tag, "visibility": "public", "initialize_with_readme": True})
project.members.create({"user_id": dev_id, "access_level": 30})
project.members.create({"user_id": guest_id, "access_level": 10})
dev_project = dev_gl.projects.get(project.id, lazy=True)
guest_project = guest_gl.projects.get(project.id, lazy=True)

# snippets: python's create form is file_name + content (all four required by the client)
created = dev_project.snippets.create({"title": "From python", "file_name": "hello.py", "content": "print('hi')",
                                       "visibility": "private", "description": "python snippet"})
fetched = dev_project.snippets.get(created.id)
fetched_view = view(fetched, SNIPPET_KEYS)
for number in range(2):
    dev_project.snippets.create({"title": f"Filler {number}", "file_name": f"f{number}.txt", "content": "x", "visibility": "public"})
listed_ids = [s.id for s in guest_project.snippets.list(per_page=1, get_all=True)]
fetched.title = "Saved by python"
fetched.content = "print('saved')"
fetched.save()
after_save = view(dev_project.snippets.get(created.id), SNIPPET_KEYS)

# raw: snippet.content() reads GET .../snippets/:id/raw and hands back the bytes
anonymous_project = anonymous.projects.get(project.id, lazy=True)
raw = {
    "dev": dev_project.snippets.get(created.id, lazy=True).content().decode(),
    "guest": guest_project.snippets.get(created.id).content().decode(),
    "anonymous_private": error_of(lambda: anonymous_project.snippets.get(created.id, lazy=True).content()),
    "unknown": error_of(lambda: dev_project.snippets.get(999999, lazy=True).content()),
}

# notes on an issue, a merge request and the snippet (children use the parent's project_id and iid / id)
issue = project.issues.create({"title": "Noted issue"})
project.branches.create({"branch": f"{tag}-feature", "ref": "main"})
mr = project.mergerequests.create({"source_branch": f"{tag}-feature", "target_branch": "main", "title": "Noted MR"})

notes = {}
for kind, parent_of in (("issue", lambda p: p.issues.get(issue.iid)),
                        ("mr", lambda p: p.mergerequests.get(mr.iid)),
                        ("snippet", lambda p: p.snippets.get(created.id))):
    guest_parent = parent_of(guest_project)
    dev_parent = parent_of(dev_project)
    note = guest_parent.notes.create({"body": f"{kind} note from python"})
    internal = None if kind == "snippet" else dev_parent.notes.create({"body": "internal", "internal": True})
    fetched_note = guest_parent.notes.get(note.id)
    fetched_note.body = "edited by python"
    fetched_note.save()
    result = {
        "created": view(note, NOTE_KEYS),
        "edited": view(guest_parent.notes.get(note.id), NOTE_KEYS),
        "internal": internal and view(internal, NOTE_KEYS),
        "guest_list": [n.id for n in guest_parent.notes.list(get_all=True)],
        "dev_list": [n.id for n in dev_parent.notes.list(get_all=True, sort="asc")],
        "guest_edit_other": internal and error_of(lambda: guest_parent.notes.update(internal.id, {"body": "x"})),
        "guest_get_internal": internal and error_of(lambda: guest_parent.notes.get(internal.id)),
        "empty_body": error_of(lambda: guest_parent.notes.create({"body": ""})),
    }
    guest_parent.notes.delete(note.id)
    result["deleted"] = error_of(lambda: dev_parent.notes.get(note.id))
    notes[kind] = result

errors = {
    "guest_create_snippet": error_of(lambda: guest_project.snippets.create(
        {"title": "No", "file_name": "a", "content": "a", "visibility": "public"})),
    "missing_title": error_of(lambda: gl.http_post(f"/projects/{project.id}/snippets",
                                                   post_data={"file_name": "a", "content": "a", "visibility": "public"})),
    "anonymous_list": error_of(lambda: anonymous.projects.get(project.id, lazy=True).snippets.list()),
    "anonymous_notes": error_of(lambda: anonymous.projects.get(project.id, lazy=True).issues.get(issue.iid, lazy=True).notes.list()),
    "unknown_snippet": error_of(lambda: dev_project.snippets.get(999999)),
    "guest_delete_snippet": error_of(lambda: guest_project.snippets.delete(created.id)),
}
dev_project.snippets.delete(created.id)
errors["deleted_snippet"] = error_of(lambda: dev_project.snippets.get(created.id))

emit({
    "project": {"id": project.id, "path_with_namespace": project.path_with_namespace},
    "issue": {"id": issue.id, "iid": issue.iid},
    "mr": {"id": mr.id, "iid": mr.iid},
    "created": view(created, SNIPPET_KEYS),
    "fetched": fetched_view,
    "listed_ids": listed_ids,
    "after_save": after_save,
    "raw": raw,
    "notes": notes,
    "errors": errors,
})
