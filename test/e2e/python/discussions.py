"""Discussions through python-gitlab 3.12: issue.discussions / mr.discussions / snippet.discussions
create, get, list (get_all); discussion.notes create (a reply), get, save() of a changed body,
delete; mr discussion save() of `resolved` (resolve and unresolve a thread); a reply to an
individual note (a thread on issues, refused on snippets); and the errors the client raises.
TAG is a unique name prefix, DEV_TOKEN belongs to a Developer of the project the script creates,
GUEST_TOKEN to a Guest (DEV_ID / GUEST_ID their ids)."""
import os

from common import connect, emit, error_of

tag = os.environ["TAG"]
gl = connect()
dev_gl = connect(os.environ["DEV_TOKEN"])
guest_gl = connect(os.environ["GUEST_TOKEN"])

project = gl.projects.create({"name": tag, "visibility": "public", "initialize_with_readme": True})
project.members.create({"user_id": int(os.environ["DEV_ID"]), "access_level": 30})
project.members.create({"user_id": int(os.environ["GUEST_ID"]), "access_level": 10})
dev_project = dev_gl.projects.get(project.id, lazy=True)
guest_project = guest_gl.projects.get(project.id, lazy=True)


def thread_view(discussion):
    return {
        "id": discussion.id,
        "individual_note": discussion.individual_note,
        "notes": [{key: note.get(key) for key in ("body", "type", "resolvable", "resolved")} | {"author_id": note["author"]["id"]}
                  for note in discussion.attributes["notes"]],
    }


# an issue thread: started by the Guest, answered by the Developer, the answer edited and deleted
issue = project.issues.create({"title": "Discussed issue"})
guest_issue = guest_project.issues.get(issue.iid)
dev_issue = dev_project.issues.get(issue.iid)
thread = guest_issue.discussions.create({"body": "Shall we?"})
answer = dev_issue.discussions.get(thread.id).notes.create({"body": "We shall"})
fetched_answer = dev_issue.discussions.get(thread.id).notes.get(answer.id)
fetched_answer.body = "We shall, edited"
fetched_answer.save()
issue_thread = thread_view(guest_issue.discussions.get(thread.id))
plain = dev_issue.notes.create({"body": "A plain note"})
plain_discussion = next(d for d in dev_issue.discussions.list(get_all=True) if d.attributes["notes"][0]["id"] == plain.id)
plain_before = thread_view(plain_discussion)
guest_issue.discussions.get(plain_discussion.id).notes.create({"body": "Replying to a plain note"})
plain_after = thread_view(dev_issue.discussions.get(plain_discussion.id))
listed = [d.id for d in guest_issue.discussions.list(per_page=1, get_all=True)]
dev_issue.discussions.get(thread.id).notes.delete(answer.id)
after_delete = thread_view(guest_issue.discussions.get(thread.id))

# a merge request thread resolved and unresolved through save() of `resolved`
project.branches.create({"branch": f"{tag}-feature", "ref": "main"})
mr = project.mergerequests.create({"source_branch": f"{tag}-feature", "target_branch": "main", "title": "Discussed MR"})
dev_mr = dev_project.mergerequests.get(mr.iid)
guest_mr = guest_project.mergerequests.get(mr.iid)
mr_thread = guest_mr.discussions.create({"body": "Please rename this"})
guest_thread = guest_mr.discussions.get(mr_thread.id)
guest_thread.resolved = True
guest_resolve = error_of(guest_thread.save)
dev_thread = dev_mr.discussions.get(mr_thread.id)
dev_thread.resolved = True
dev_thread.save()
resolved = thread_view(dev_mr.discussions.get(mr_thread.id))
dev_thread = dev_mr.discussions.get(mr_thread.id)
dev_thread.resolved = False
dev_thread.save()
unresolved = thread_view(dev_mr.discussions.get(mr_thread.id))

# a snippet: threads work, a reply to an individual note is refused
snippet = dev_project.snippets.create({"title": "Discussed", "file_name": "a.txt", "content": "a", "visibility": "public"})
snippet_thread = guest_project.snippets.get(snippet.id).discussions.create({"body": "On a snippet"})
snippet_note = dev_project.snippets.get(snippet.id).notes.create({"body": "individual"})
snippet_individual = next(d for d in dev_project.snippets.get(snippet.id).discussions.list(get_all=True)
                          if d.attributes["notes"][0]["id"] == snippet_note.id)

emit({
    "issue_thread": issue_thread,
    "plain_before": plain_before,
    "plain_after": plain_after,
    "listed": listed,
    "thread_id": thread.id,
    "plain_discussion_id": plain_discussion.id,
    "after_delete": after_delete,
    "resolved": resolved,
    "unresolved": unresolved,
    "snippet_thread": thread_view(snippet_thread),
    "errors": {
        "guest_resolve": guest_resolve,
        "unknown": error_of(lambda: dev_issue.discussions.get("0" * 40)),
        "snippet_reply_individual": error_of(lambda: dev_project.snippets.get(snippet.id).discussions.get(snippet_individual.id)
                                             .notes.create({"body": "no"})),
        "empty_body": error_of(lambda: dev_issue.discussions.create({"body": ""})),
    },
})
