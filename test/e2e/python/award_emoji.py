"""Emoji reactions through python-gitlab 3.12's award-emoji managers: issue.awardemojis,
mr.awardemojis, snippet.awardemojis and the notes' awardemojis (issue, MR and snippet notes):
create, list (get_all over the Link header, one page, iterator), get, delete(), plus a raw
gl.http_list call, upvotes/downvotes, and the errors the client raises. TAG is a
unique name prefix, USER_TOKEN belongs to a user who is not a member of the project made here."""
import os

from common import connect, emit, error_of

tag = os.environ["TAG"]
gl = connect()
user_gl = connect(os.environ["USER_TOKEN"])


def view(award):
    return {key: award.attributes[key] for key in ("id", "name", "awardable_id", "awardable_type")} | {
        "user_id": award.user["id"]}


project = gl.projects.create({"name": tag, "visibility": "public", "initialize_with_readme": True})
issue = project.issues.create({"title": "Award me"})
project.branches.create({"branch": f"{tag}-feature", "ref": "main"})
mr = project.mergerequests.create({"source_branch": f"{tag}-feature", "target_branch": "main", "title": "Award me too"})
snippet = project.snippets.create({"title": "Snippet", "file_name": "a.py", "content": "print(1)", "visibility": "public"})
issue_note = issue.notes.create({"body": "issue note"})
mr_note = mr.notes.create({"body": "mr note"})
snippet_note = snippet.notes.create({"body": "snippet note"})

# the user (not a member of this public project) reacts through objects fetched with their token
user_project = user_gl.projects.get(project.id)
user_issue = user_project.issues.get(issue.iid)
user_mr = user_project.mergerequests.get(mr.iid)
user_snippet = user_project.snippets.get(snippet.id)
created = {
    "issue": user_issue.awardemojis.create({"name": "+1"}),
    "mr": user_mr.awardemojis.create({"name": "-1"}),
    "snippet": user_snippet.awardemojis.create({"name": "tada"}),
    "issue_note": user_issue.notes.get(issue_note.id).awardemojis.create({"name": "smile"}),
    "mr_note": user_mr.notes.get(mr_note.id).awardemojis.create({"name": "rocket"}),
    "snippet_note": user_snippet.notes.get(snippet_note.id).awardemojis.create({"name": "8ball"}),
}

# root reads them back through its own objects
listed = {
    "issue": [view(a) for a in issue.awardemojis.list(get_all=True)],
    "mr": [view(a) for a in mr.awardemojis.list(get_all=True)],
    "snippet": [view(a) for a in snippet.awardemojis.list(get_all=True)],
    "issue_note": [view(a) for a in issue_note.awardemojis.list(get_all=True)],
    "mr_note": [view(a) for a in mr_note.awardemojis.list(get_all=True)],
    "snippet_note": [view(a) for a in snippet_note.awardemojis.list(get_all=True)],
}
fetched = view(mr_note.awardemojis.get(created["mr_note"].id))
issue_fresh = project.issues.get(issue.iid)
mr_fresh = project.mergerequests.get(mr.iid)
votes = {"issue": [issue_fresh.upvotes, issue_fresh.downvotes], "mr": [mr_fresh.upvotes, mr_fresh.downvotes]}

# errors: a duplicate, an unknown name, someone else's reaction, an unknown reaction
errors = {
    "duplicate": error_of(lambda: user_issue.awardemojis.create({"name": "thumbsup"})),
    "unknown_name": error_of(lambda: user_snippet.awardemojis.create({"name": "not_an_emoji"})),
    "others": error_of(lambda: user_issue.awardemojis.delete(issue.awardemojis.create({"name": "heart"}).id)),
    "unknown": error_of(lambda: issue.awardemojis.get(999999)),
}

# delete(): the user's own reactions, and an administrator removing the user's
created["issue"].delete()
created["snippet_note"].delete()
mr.awardemojis.delete(created["mr"].id)
after_delete = {
    "issue": [a.name for a in issue.awardemojis.list(get_all=True)],
    "snippet_note": [a.name for a in snippet_note.awardemojis.list(get_all=True)],
    "mr": [a.name for a in mr.awardemojis.list(get_all=True)],
}

# pagination: get_all walks the Link header; one page; the iterator's totals
for name in ("smile", "eyes", "rocket", "100"):
    snippet.awardemojis.create({"name": name})
walked = [a.name for a in snippet.awardemojis.list(per_page=2, get_all=True)]
page_two = [a.name for a in snippet.awardemojis.list(per_page=2, page=2)]
iterator = snippet.awardemojis.list(per_page=2, iterator=True)
raw = gl.http_list(f"/projects/{project.id}/snippets/{snippet.id}/award_emoji", per_page=3, page=2)

emit({
    "project_id": project.id,
    "issue_id": issue.id,
    "mr_id": mr.id,
    "snippet_id": snippet.id,
    "note_ids": {"issue_note": issue_note.id, "mr_note": mr_note.id, "snippet_note": snippet_note.id},
    "created": {key: view(award) for key, award in created.items()},
    "listed": listed,
    "fetched": fetched,
    "votes": votes,
    "errors": errors,
    "after_delete": after_delete,
    "pagination": {
        "walked": walked,
        "page_two": page_two,
        "iterator": {"total": iterator.total, "total_pages": iterator.total_pages, "per_page": iterator.per_page},
        "raw": [a["name"] for a in raw],
    },
})
